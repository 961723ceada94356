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
        if: NeovimSession.isAvailable,
        "Neovim (/usr/bin/nvim) or the bts binary is missing"
    )
)
struct NeovimFieldCompletionTests {
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
    static let lua = NeovimSession.lua(
        #"""
        local places = os.getenv('BTS_NVIM_PLACES')
        local hover = os.getenv('BTS_NVIM_HOVER')

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
          local client_id = attach()
          if not client_id then return end
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
        """#
    )

    @Test func neovimCompletesResultFieldsAndExplainsAKeyword() async throws {
        let binary = try #require(BTSExecutable.url)
        let directory = try makeTempDirectory("neovim-fields")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try await NeovimSession.run(
            binary,
            in: directory,
            scriptName: "fields.bts",
            text: Self.script.joined(separator: "\n") + "\n",
            lua: Self.lua,
            environment: [
                "BTS_NVIM_PLACES": "1:\(Self.script[1].utf16.count) 3:\(Self.script[3].utf16.count)",
                "BTS_NVIM_HOVER": "5:2",
            ]
        )
        let (written, report) = (session.written, session.report)
        #expect(session.outcome.status == 0, "\(report)")

        let lines = written.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "two completions and a hover: \(report)")
        #expect(lines[0] == "complete:1:results", "the fields of search's result: \(report)")
        #expect(lines[1] == "complete:3:title", "a book's fields: \(report)")
        #expect(lines[2].hasPrefix("hover:while COND … end"), "the syntax of while: \(report)")
    }
}
