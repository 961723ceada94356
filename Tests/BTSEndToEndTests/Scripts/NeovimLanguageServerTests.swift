import Foundation
import TestSupport
import Testing

/// `bts lsp` in a real editor: headless Neovim (0.7, Debian's package) opens a script with two
/// mistakes, starts the language server for it, and shows the two diagnostics at their places; once
/// the buffer is corrected they are gone.
@Suite(
    "Neovim attaches to bts lsp",
    .enabled(
        if: NeovimSession.isAvailable,
        "Neovim (/usr/bin/nvim) or the bts binary is missing"
    )
)
struct NeovimLanguageServerTests {
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
    static let lua = NeovimSession.lua(
        #"""
        local fixed = os.getenv('BTS_NVIM_FIXED')

        local function main()
          local client_id = attach()
          if not client_id then return end
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
        """#
    )

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
        let fixedFile = directory.appendingPathComponent("fixed.txt")
        try Data((Self.fixed.joined(separator: "\n") + "\n").utf8).write(to: fixedFile)
        let session = try await NeovimSession.run(
            binary,
            in: directory,
            text: Self.broken.joined(separator: "\n") + "\n",
            lua: Self.lua,
            environment: [
                "BTS_NVIM_FIXED": fixedFile.path
            ]
        )
        let (written, report) = (session.written, session.report)
        #expect(session.outcome.status == 0, "\(report)")

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
