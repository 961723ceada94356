import Foundation
import TestSupport
import Testing

/// `bts lsp`'s quick fixes in a real editor: headless Neovim (0.7, Debian's package) opens a script
/// with a misspelt command and a misspelt option, reads the diagnostics' codes, asks for the code
/// actions at the command, applies the quick fix, and the buffer says `search`.
@Suite(
    "Neovim applies bts lsp's quick fix",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/nvim") && BTSExecutable.url != nil,
        "Neovim (/usr/bin/nvim) or the bts binary is missing"
    )
)
struct NeovimQuickFixTests {
    static let neovim = URL(fileURLWithPath: "/usr/bin/nvim")

    /// The script Neovim opens: a misspelt command on line 3, a misspelt option on line 4.
    static let broken = [
        "# Dune, twice.",
        "set who \"Frank Herbert\"",
        "serch dune",
        "search title dune --limt 5",
    ]

    /// Neovim's side, sourced with `-S`: opens BTS_NVIM_FILE, starts `bts lsp` (BTS_NVIM_BTS) for its
    /// buffer, waits for two diagnostics and writes to BTS_NVIM_OUT one line `diagnostic
    /// lnum:col:source:code` for each (0-based, as Neovim reports them); asks for the quick fixes at
    /// the first one and writes `action TITLE` for each; applies the first (a workspace edit in
    /// UTF-16, the server's encoding) and writes `line TEXT`, the buffer's line 3 after it; waits
    /// for one diagnostic left and writes `left N`. The waits are bounded by BTS_NVIM_TIMEOUT_MS;
    /// Neovim quits in every case, an error written as "error: ...".
    static let lua = #"""
        local bts = os.getenv('BTS_NVIM_BTS')
        local dir = os.getenv('BTS_NVIM_DIR')
        local file = os.getenv('BTS_NVIM_FILE')
        local out = os.getenv('BTS_NVIM_OUT')
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
            emit(string.format('diagnostic %d:%d:%s:%s', d.lnum, d.col, tostring(d.source), tostring(d.code)))
          end
          local first = found[1]
          if not first then return end
          local params = {
            textDocument = { uri = vim.uri_from_bufnr(0) },
            range = {
              start = { line = first.lnum, character = first.col },
              ['end'] = { line = first.end_lnum, character = first.end_col },
            },
            context = { diagnostics = {}, only = { 'quickfix' } },
          }
          local replies = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, timeout) or {}
          local actions = {}
          for _, reply in pairs(replies) do
            for _, action in ipairs(reply.result or {}) do
              table.insert(actions, action)
              emit('action ' .. action.title)
            end
          end
          if actions[1] and actions[1].edit then
            vim.lsp.util.apply_workspace_edit(actions[1].edit, 'utf-16')
          end
          emit('line ' .. vim.api.nvim_buf_get_lines(0, 2, 3, false)[1])
          vim.wait(timeout, function() return #vim.diagnostic.get(0) == 1 end, 50)
          emit('left ' .. #vim.diagnostic.get(0))
          vim.lsp.stop_client(client_id)
        end

        local ok, err = pcall(main)
        if not ok then emit('error: ' .. tostring(err)) end
        vim.cmd('qa!')
        """#

    @Test func neovimReadsTheCodesAndItsQuickFixWritesSearch() async throws {
        let binary = try #require(BTSExecutable.url)
        let directory = try makeTempDirectory("neovim-fix")
        defer { try? FileManager.default.removeItem(at: directory) }
        for sub in ["home", "config", "data", "state", "cache"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(sub),
                withIntermediateDirectories: true
            )
        }
        let script = directory.appendingPathComponent("books.bts")
        let luaFile = directory.appendingPathComponent("fix.lua")
        let output = directory.appendingPathComponent("fix.txt")
        try Data((Self.broken.joined(separator: "\n") + "\n").utf8).write(to: script)
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
        let column = Self.broken[3].utf8.count - "--limt 5".utf8.count
        #expect(
            lines == [
                "diagnostic 2:0:bts:unknown-command",
                "diagnostic 3:\(column):bts:unknown-option",
                "action Replace 'serch' with 'search'",
                "line search dune",
                "left 1",
            ],
            "\(report)"
        )
        // The file is as it was: the fix changed the buffer, not what is saved.
        #expect(try String(contentsOf: script, encoding: .utf8).contains("serch dune"))
    }
}
