import Foundation
import TestSupport
import Testing

/// `bts lsp`'s result fields in a real editor: headless Neovim (0.7, Debian's package) opens a saved
/// script and asks the language server for completion after `${_.re` (the fields of `search`'s
/// result) and after `${b.ti` inside `for b in ${_.results}` (a book's fields), and for the hover on
/// `while` (its syntax).
@Suite(
    "Neovim completes result fields from bts lsp",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/nvim") && BTSExecutable.url != nil,
        "Neovim (/usr/bin/nvim) or the bts binary is missing"
    )
)
struct NeovimFieldCompletionTests {
    static let neovim = URL(fileURLWithPath: "/usr/bin/nvim")

    /// The script Neovim opens; the two unfinished `${` lines are where completion is asked.
    static let script = [
        "search title dune",
        "echo ${_.re",
        "for b in ${_.results}",
        "  echo ${b.ti",
        "end",
        "while ${_.count} > 100",
        "  more",
        "end",
    ]

    /// Neovim's side, sourced with `-S`: opens BTS_NVIM_FILE, starts `bts lsp` (BTS_NVIM_BTS) for its
    /// buffer, waits for its diagnostics (the server has the document then), and writes to
    /// BTS_NVIM_OUT one line per request: `complete:LINE:LABEL,LABEL…` for each place of
    /// BTS_NVIM_PLACES (`LINE:CHARACTER` pairs, 0-based) and `hover:TEXT` for the hover at
    /// BTS_NVIM_HOVER (line breaks become " | "). The waits are bounded by BTS_NVIM_TIMEOUT_MS;
    /// Neovim quits in every case, an error written as "error: ...".
    static let lua = #"""
        local bts = os.getenv('BTS_NVIM_BTS')
        local dir = os.getenv('BTS_NVIM_DIR')
        local file = os.getenv('BTS_NVIM_FILE')
        local out = os.getenv('BTS_NVIM_OUT')
        local places = os.getenv('BTS_NVIM_PLACES')
        local hover = os.getenv('BTS_NVIM_HOVER')
        local timeout = tonumber(os.getenv('BTS_NVIM_TIMEOUT_MS'))

        local written = {}
        local function emit(line)
          table.insert(written, line)
          vim.fn.writefile(written, out)
        end

        local function position(text)
          local line, character = text:match('(%d+):(%d+)')
          return {
            textDocument = { uri = vim.uri_from_bufnr(0) },
            position = { line = tonumber(line), character = tonumber(character) },
          }
        end

        local function answer(method, params)
          local replies = vim.lsp.buf_request_sync(0, method, params, timeout)
          for _, reply in pairs(replies or {}) do
            if reply.result then return reply.result end
          end
          return nil
        end

        local function main()
          vim.cmd('edit ' .. vim.fn.fnameescape(file))
          local client_id = vim.lsp.start_client({ name = 'bts', cmd = { bts, 'lsp' }, root_dir = dir })
          if not client_id then
            emit('no client')
            return
          end
          vim.lsp.buf_attach_client(0, client_id)
          vim.wait(timeout, function() return #vim.diagnostic.get(0) >= 1 end, 50)
          for place in places:gmatch('[^ ]+') do
            local result = answer('textDocument/completion', position(place)) or {}
            local labels = {}
            for _, item in ipairs(result.items or result) do table.insert(labels, item.label) end
            emit('complete:' .. place:match('^(%d+)') .. ':' .. table.concat(labels, ','))
          end
          local shown = answer('textDocument/hover', position(hover))
          local text = shown and shown.contents and shown.contents.value or 'none'
          emit('hover:' .. (text:gsub('\n', ' | ')))
          vim.lsp.stop_client(client_id)
        end

        local ok, err = pcall(main)
        if not ok then emit('error: ' .. tostring(err)) end
        vim.cmd('qa!')
        """#

    @Test func neovimCompletesResultFieldsAndExplainsAKeyword() async throws {
        let binary = try #require(BTSExecutable.url)
        let directory = try makeTempDirectory("neovim-fields")
        defer { try? FileManager.default.removeItem(at: directory) }
        for sub in ["home", "config", "data", "state", "cache"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(sub),
                withIntermediateDirectories: true
            )
        }
        let scriptFile = directory.appendingPathComponent("fields.bts")
        let luaFile = directory.appendingPathComponent("fields.lua")
        let output = directory.appendingPathComponent("answers.txt")
        try Data((Self.script.joined(separator: "\n") + "\n").utf8).write(to: scriptFile)
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
        environment["BTS_NVIM_FILE"] = scriptFile.path
        environment["BTS_NVIM_OUT"] = output.path
        // The ends of `echo ${_.re` and of `  echo ${b.ti`; `while`.
        environment["BTS_NVIM_PLACES"] = "1:\(Self.script[1].utf16.count) 3:\(Self.script[3].utf16.count)"
        environment["BTS_NVIM_HOVER"] = "5:2"
        // Each wait only bounds a hang; the whole run's bound covers them all.
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
        try #require(lines.count == 3, "two completions and a hover: \(report)")
        #expect(lines[0] == "complete:1:results", "the fields of search's result: \(report)")
        #expect(lines[1] == "complete:3:title", "a book's fields: \(report)")
        #expect(lines[2].hasPrefix("hover:while COND … end"), "the syntax of while: \(report)")
    }
}
