import Foundation
import TestSupport
import Testing

/// `bts lsp`'s semantic tokens and folding ranges in a real editor: headless Neovim (0.7, Debian's
/// package) opens a script, starts the language server for it and asks for both; the answers come
/// back through Neovim's client as it sends and reads them.
@Suite(
    "Neovim asks bts lsp for semantic tokens and folding ranges",
    .enabled(
        if: NeovimSession.isAvailable,
        "Neovim (/usr/bin/nvim) or the bts binary is missing"
    )
)
struct NeovimSemanticTokenTests {
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
    static let lua = NeovimSession.lua(
        #"""
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
          local client_id = attach()
          if not client_id then return end
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
        """#
    )

    @Test func neovimGetsTheTokensAndTheFoldingRanges() async throws {
        let binary = try #require(BTSExecutable.url)
        let directory = try makeTempDirectory("neovim-tokens")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try await NeovimSession.run(
            binary,
            in: directory,
            text: Self.script.joined(separator: "\n") + "\n",
            lua: Self.lua
        )
        let (written, report) = (session.written, session.report)
        #expect(session.outcome.status == 0, "\(report)")
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
