import Foundation
import TestSupport
import Testing

/// `bts lsp`'s semantic tokens and folding ranges in a real editor: headless Neovim (0.7, Debian's
/// package) opens a script, starts the language server for it and asks for both; the answers come
/// back through Neovim's client as it sends and reads them.
@Suite(
    "Neovim asks bts lsp for semantic tokens and folding ranges",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/nvim") && BTSExecutable.url != nil,
        "Neovim (/usr/bin/nvim) or the bts binary is missing"
    )
)
struct NeovimSemanticTokenTests {
    static let neovim = URL(fileURLWithPath: "/usr/bin/nvim")

    /// The script Neovim opens: a comment run, a command, a block with two branches; a misspelt
    /// command, whose diagnostic tells that the server has started.
    static let script = [
        "# Dune,",
        "# twice.",
        "search title \"dune\" --limit 3",
        "if $n == 1",
        "  echo one",
        "else",
        "  echo two",
        "end",
        "serch dune",
    ]

    /// Neovim's side, sourced with `-S`: opens BTS_NVIM_FILE, starts `bts lsp` (BTS_NVIM_BTS) for its
    /// buffer, waits for a diagnostic (the server is running), then asks `semanticTokens/full` and
    /// `foldingRange` with `vim.lsp.buf_request_sync` and writes to BTS_NVIM_OUT the legend's token
    /// types (`legend:` and their names), the data (`data:` and its integers) and one line
    /// `fold:START-END:KIND` per folding range. Waits are bounded by BTS_NVIM_TIMEOUT_MS; Neovim
    /// quits in every case, an error written as "error: ...".
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

        local function ask(method)
          local params = { textDocument = vim.lsp.util.make_text_document_params() }
          local answers, err = vim.lsp.buf_request_sync(0, method, params, timeout)
          if not answers then
            emit('error: ' .. method .. ': ' .. tostring(err))
            return nil
          end
          for _, answer in pairs(answers) do
            if answer.err then emit('error: ' .. method .. ': ' .. vim.inspect(answer.err)) end
            return answer.result
          end
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
          local client = vim.lsp.get_client_by_id(client_id)
          local provider = client.server_capabilities.semanticTokensProvider
          emit('legend:' .. table.concat(provider and provider.legend.tokenTypes or {}, ' '))
          local tokens = ask('textDocument/semanticTokens/full')
          if tokens then emit('data:' .. table.concat(tokens.data, ' ')) end
          local folds = ask('textDocument/foldingRange')
          for _, fold in ipairs(folds or {}) do
            emit(string.format('fold:%d-%d:%s', fold.startLine, fold.endLine, fold.kind or ''))
          end
          vim.lsp.stop_client(client_id)
        end

        local ok, err = pcall(main)
        if not ok then emit('error: ' .. tostring(err)) end
        vim.cmd('qa!')
        """#

    @Test func neovimGetsTheTokensAndTheFoldingRanges() async throws {
        let binary = try #require(BTSExecutable.url)
        let directory = try makeTempDirectory("neovim-tokens")
        defer { try? FileManager.default.removeItem(at: directory) }
        for sub in ["home", "config", "data", "state", "cache"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(sub),
                withIntermediateDirectories: true
            )
        }
        let script = directory.appendingPathComponent("books.bts")
        let luaFile = directory.appendingPathComponent("ask.lua")
        let output = directory.appendingPathComponent("answers.txt")
        try Data((Self.script.joined(separator: "\n") + "\n").utf8).write(to: script)
        try Data(Self.lua.utf8).write(to: luaFile)

        // Neovim reads no configuration of the user's and leaves nothing in their directories.
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
        #expect(!lines.contains { $0.hasPrefix("error") || $0 == "no client" }, "\(report)")

        let legend = try #require(lines.first { $0.hasPrefix("legend:") }, "\(report)").dropFirst(7)
            .split(separator: " ").map(String.init)
        #expect(legend.first == "keyword" && legend.contains("function") && legend.contains("comment"), "\(report)")
        let data = try #require(lines.first { $0.hasPrefix("data:") }, "\(report)").dropFirst(5)
            .split(separator: " ").compactMap { Int($0) }
        #expect(data.count % 5 == 0 && data.count >= 5 * 12, "\(report)")
        // The first tokens: the two comment lines, then `search` (a function) at 2:0, 6 long.
        let type = { (name: String) in legend.firstIndex(of: name) ?? -1 }
        #expect(
            Array(data.prefix(15)) == [
                0, 0, 7, type("comment"), 0, 1, 0, 8, type("comment"), 0, 1, 0, 6, type("function"), 0,
            ],
            "\(report)"
        )

        let folds = lines.filter { $0.hasPrefix("fold:") }
        #expect(folds == ["fold:0-1:comment", "fold:3-4:", "fold:5-6:"], "\(report)")
    }
}
