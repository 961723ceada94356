import Foundation
import TestSupport
import Testing

/// `bts lsp` in a real editor: headless Neovim (0.7, Debian's package) opens a script with two
/// mistakes, starts the language server for it, and shows the two diagnostics at their places; once
/// the buffer is corrected they are gone.
@Suite(
    "Neovim attaches to bts lsp",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/nvim") && BTSExecutable.url != nil,
        "Neovim (/usr/bin/nvim) or the bts binary is missing"
    )
)
struct NeovimLanguageServerTests {
    static let neovim = URL(fileURLWithPath: "/usr/bin/nvim")

    /// The script Neovim opens: a misspelt command on line 3, a misspelt option on line 4.
    static let broken = [
        "# Dune, twice.",
        "set who \"Frank Herbert\"",
        "serch dune",
        "search title dune --limt 5",
    ]

    /// The same script corrected, which the buffer's lines are replaced with.
    static let fixed = [
        "# Dune, twice.",
        "set who \"Frank Herbert\"",
        "search dune",
        "search title dune --limit 5",
    ]

    /// Neovim's side, sourced with `-S`: opens BTS_NVIM_FILE, starts `bts lsp` (BTS_NVIM_BTS) for its
    /// buffer, waits for two diagnostics, and writes to BTS_NVIM_OUT one line `lnum:col:message` per
    /// diagnostic (0-based, as Neovim reports them; a message's own line breaks become " | "); then
    /// puts the lines of BTS_NVIM_FIXED into the buffer, waits for no diagnostics, and writes
    /// "cleared" (or "not cleared"). The waits are bounded by BTS_NVIM_TIMEOUT_MS; Neovim quits in
    /// every case, an error written as "error: ...".
    static let lua = #"""
        local bts = os.getenv('BTS_NVIM_BTS')
        local dir = os.getenv('BTS_NVIM_DIR')
        local file = os.getenv('BTS_NVIM_FILE')
        local out = os.getenv('BTS_NVIM_OUT')
        local fixed = os.getenv('BTS_NVIM_FIXED')
        local timeout = tonumber(os.getenv('BTS_NVIM_TIMEOUT_MS'))

        local written = {}
        local function emit(line)
          table.insert(written, line)
          vim.fn.writefile(written, out)
        end

        local function main()
          vim.cmd('edit ' .. vim.fn.fnameescape(file))
          local client_id = vim.lsp.start_client({ name = 'bts', cmd = { bts, 'lsp' }, root_dir = dir })
          if not client_id then
            emit('no client')
            return
          end
          vim.lsp.buf_attach_client(0, client_id)
          vim.wait(timeout, function() return #vim.diagnostic.get(0) >= 2 end, 50)
          local found = vim.diagnostic.get(0)
          table.sort(found, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
          for _, d in ipairs(found) do
            emit(string.format('%d:%d:%s', d.lnum, d.col, (d.message:gsub('\n', ' | '))))
          end
          vim.api.nvim_buf_set_lines(0, 0, -1, false, vim.fn.readfile(fixed))
          local cleared = vim.wait(timeout, function() return #vim.diagnostic.get(0) == 0 end, 50)
          emit(cleared and 'cleared' or 'not cleared')
          vim.lsp.stop_client(client_id)
        end

        local ok, err = pcall(main)
        if not ok then emit('error: ' .. tostring(err)) end
        vim.cmd('qa!')
        """#

    /// One line of the output file: a diagnostic's 0-based line and column and its message.
    struct Reported: Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var message: String

        init?(_ text: String) {
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let line = Int(parts[0]), let column = Int(parts[1]) else { return nil }
            self.line = line
            self.column = column
            self.message = String(parts[2])
        }

        var description: String { "\(line):\(column):\(message)" }
    }

    @Test func neovimShowsTheDiagnosticsAndClearsThemAfterTheFix() async throws {
        let binary = try #require(BTSExecutable.url)
        let directory = try makeTempDirectory("neovim-lsp")
        defer { try? FileManager.default.removeItem(at: directory) }
        for sub in ["home", "config", "data", "state", "cache"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(sub),
                withIntermediateDirectories: true
            )
        }
        let script = directory.appendingPathComponent("books.bts")
        let fixedFile = directory.appendingPathComponent("fixed.txt")
        let luaFile = directory.appendingPathComponent("attach.lua")
        let output = directory.appendingPathComponent("diagnostics.txt")
        try Data((Self.broken.joined(separator: "\n") + "\n").utf8).write(to: script)
        try Data((Self.fixed.joined(separator: "\n") + "\n").utf8).write(to: fixedFile)
        try Data(Self.lua.utf8).write(to: luaFile)

        // Neovim reads no configuration of the user's and leaves nothing in their directories: its
        // LSP log goes to the private cache directory, and is shown when the test fails.
        var environment = ProcessInfo.processInfo.environment
        for name in [
            "VIMINIT", "EXINIT", "MYVIMRC", "VIM", "VIMRUNTIME", "NVIM", "NVIM_LISTEN_ADDRESS",
            "NVIM_LOG_FILE", "NVIM_APPNAME", "BTS_API_URL",
        ] {
            environment.removeValue(forKey: name)
        }
        environment["HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("cache").path
        environment["BTS_NVIM_BTS"] = binary.path
        environment["BTS_NVIM_DIR"] = directory.path
        environment["BTS_NVIM_FILE"] = script.path
        environment["BTS_NVIM_OUT"] = output.path
        environment["BTS_NVIM_FIXED"] = fixedFile.path
        // Each wait only bounds a hang; the whole run's bound covers both.
        environment["BTS_NVIM_TIMEOUT_MS"] = String(TestTime.seconds(60) * 1000)

        let outcome = try await ChildProcess.run(
            Self.neovim,
            ["--headless", "--clean", "-S", luaFile.path],
            environment: environment,
            directory: directory,
            timeout: .seconds(180)
        )
        let written = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let log =
            (try? String(contentsOf: directory.appendingPathComponent("cache/nvim/lsp.log"), encoding: .utf8)) ?? ""
        let report = "--- \(output.lastPathComponent)\n\(written)--- nvim \(outcome)\n--- lsp.log\n\(log)"
        #expect(outcome.status == 0, "\(report)")

        let lines = written.split(separator: "\n").map(String.init)
        let reported = lines.dropLast().compactMap(Reported.init)
        try #require(reported.count == 2 && lines.count == 3, "exactly two diagnostics, then the marker: \(report)")

        let command = reported[0]
        #expect(command.line == 2 && command.column == 0, "\(command)")
        #expect(command.message.hasPrefix("unknown command 'serch' (did you mean 'search'?)"), "\(command)")

        let badLine = Self.broken[3]
        let option = try #require(badLine.range(of: "--limt"))
        let optionColumn = badLine.distance(from: badLine.startIndex, to: option.lowerBound)
        let misspelt = reported[1]
        #expect(misspelt.line == 3 && misspelt.column == optionColumn, "\(misspelt), expected column \(optionColumn)")
        #expect(
            misspelt.message.hasPrefix("unknown option '--limt' for 'search' (did you mean '--limit'?)"),
            "\(misspelt)"
        )

        #expect(lines.last == "cleared", "the corrected buffer has no diagnostics: \(report)")
    }
}
