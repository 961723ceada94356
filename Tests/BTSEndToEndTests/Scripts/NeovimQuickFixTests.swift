import Foundation
import TestSupport
import Testing

/// `bts lsp`'s quick fixes in a real editor: headless Neovim (0.7, Debian's package) opens a script
/// with a misspelt command and a misspelt option, reads the diagnostics' codes, asks for the code
/// actions at the command, applies the quick fix, and the buffer says `search`.
@Suite(
    "Neovim applies bts lsp's quick fix",
    .enabled(
        if: NeovimSession.isAvailable,
        "Neovim (/usr/bin/nvim) or the bts binary is missing"
    )
)
struct NeovimQuickFixTests {
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
    static let lua = NeovimSession.lua(
        #"""
        local function main()
          local client_id = attach()
          if not client_id then return end
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
        """#
    )

    @Test func neovimReadsTheCodesAndItsQuickFixWritesSearch() async throws {
        let binary = try #require(BTSExecutable.url)
        let directory = try makeTempDirectory("neovim-fix")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try await NeovimSession.run(
            binary,
            in: directory,
            text: Self.broken.joined(separator: "\n") + "\n",
            lua: Self.lua
        )
        let script = session.script
        let (written, report) = (session.written, session.report)
        #expect(session.outcome.status == 0, "\(report)")

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
