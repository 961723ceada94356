import Foundation
import TestSupport
import Testing

/// `bts lsp`'s rename in a real editor: headless Neovim (0.7, Debian's package) opens a script,
/// renames the variable `set` gives a value with `vim.lsp.buf.rename` (prepareRename, then rename,
/// the edit applied by Neovim), saves the buffer, and the file has every read renamed and no other
/// word; a rename that would merge two variables is refused with the server's sentence.
@Suite(
    "Neovim renames a variable with bts lsp",
    .enabled(
        if: NeovimSession.isAvailable,
        "Neovim (/usr/bin/nvim) or the bts binary is missing"
    )
)
struct NeovimRenameTests {
    /// The script Neovim opens: `who` is a variable, and a word in a comment, in quotes and bare.
    static let script = [
        "# who wrote what",
        "set who \"Frank Herbert\"",
        "search author \"$who\" --limit 3",
        "echo \"who: ${who}\" who",
        "for book in ${_.results}",
        "  echo \"${book.title} by $who\"",
        "end",
    ]

    /// The script once `who` is renamed `writer`.
    static let renamed = [
        "# who wrote what",
        "set writer \"Frank Herbert\"",
        "search author \"$writer\" --limit 3",
        "echo \"who: ${writer}\" who",
        "for book in ${_.results}",
        "  echo \"${book.title} by $writer\"",
        "end",
    ]

    /// Neovim's side, sourced with `-S`: opens BTS_NVIM_FILE, starts `bts lsp` (BTS_NVIM_BTS) for
    /// its buffer, puts the cursor on `who` of line 2 and asks `prepareRename` there until the
    /// document is open (writing `placeholder NAME` and `range L:C-L:C`, 0-based UTF-16); renames it
    /// `writer` with `vim.lsp.buf.rename`, waits for the buffer to change and saves it (`written`);
    /// once the server has the change, asks to rename `book` of line 6 `writer` too and writes
    /// `refused MESSAGE` (or `not refused`). The waits are bounded by BTS_NVIM_TIMEOUT_MS; Neovim quits in every case, an
    /// error written as "error: ...".
    static let lua = NeovimSession.lua(
        #"""
        local function main()
          local client_id = attach()
          if not client_id then return end
          vim.wait(timeout, function()
            local client = vim.lsp.get_client_by_id(client_id)
            return client ~= nil and client.initialized == true
          end, 50)
          -- prepareRename at `row`, `col` until the server answers with `want` (didOpen and
          -- didChange come before the request is answered: asked again until then).
          local function prepare(row, col, want)
            vim.api.nvim_win_set_cursor(0, { row, col })
            local params = vim.lsp.util.make_position_params()
            local deadline = vim.loop.now() + timeout
            while vim.loop.now() < deadline do
              local replies = vim.lsp.buf_request_sync(0, 'textDocument/prepareRename', params, timeout) or {}
              for _, reply in pairs(replies) do
                if reply.result and reply.result.placeholder == want then return reply.result end
              end
              vim.wait(100)
            end
            return nil
          end
          local prepared = prepare(2, 4, 'who')
          if prepared == nil then
            emit('nothing prepared')
            return
          end
          emit('placeholder ' .. tostring(prepared.placeholder))
          local range = prepared.range
          emit(string.format('range %d:%d-%d:%d', range.start.line, range.start.character,
            range['end'].line, range['end'].character))
          local before = vim.api.nvim_buf_get_lines(0, 1, 2, false)[1]
          vim.lsp.buf.rename('writer')
          vim.wait(timeout, function() return vim.api.nvim_buf_get_lines(0, 1, 2, false)[1] ~= before end, 50)
          vim.cmd('write')
          emit('written')
          if prepare(2, 4, 'writer') == nil then
            emit('the server did not see the rename')
            return
          end
          vim.api.nvim_win_set_cursor(0, { 6, 11 })
          local again = vim.lsp.util.make_position_params()
          again.newName = 'writer'
          local replies = vim.lsp.buf_request_sync(0, 'textDocument/rename', again, timeout) or {}
          local refused = 'not refused'
          for _, reply in pairs(replies) do
            if reply.error then refused = 'refused ' .. tostring(reply.error.message) end
          end
          emit(refused)
          vim.lsp.stop_client(client_id)
        end
        """#
    )

    @Test func neovimRenamesEveryReadOfTheVariableAndNoOtherWord() async throws {
        let binary = try #require(BTSExecutable.url)
        let directory = try makeTempDirectory("neovim-rename")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try await NeovimSession.run(
            binary,
            in: directory,
            text: Self.script.joined(separator: "\n") + "\n",
            lua: Self.lua
        )
        let scriptFile = session.script
        let (written, report) = (session.written, session.report)
        #expect(session.outcome.status == 0, "\(report)")

        let lines = written.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(report)")
        #expect(Array(lines.prefix(3)) == ["placeholder who", "range 1:4-1:7", "written"], "\(report)")
        #expect(
            lines[3].hasPrefix("refused cannot rename to 'writer': '$writer' is already a variable of this script"),
            "\(report)"
        )
        let saved = try String(contentsOf: scriptFile, encoding: .utf8)
        #expect(saved == Self.renamed.joined(separator: "\n") + "\n", "\(report)\n--- saved\n\(saved)")
    }
}
