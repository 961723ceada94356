import BTSTerminalText
import BooksTrackContract

/// An import's rows the server matched by something other than their ISBN, in the job's summary:
/// `matches` in the value (`{row, csvTitle, matchedTitle, matchedAuthors, isbn, matchedBy}`), and a
/// line each in the view (`row 2 'Dun' → Dune (Dune Chronicles #1), Frank Herbert`), so a guess the
/// reader would not make can be seen and put right. Production's results carry no such rows.
extension CommandOutput {
    mutating func addImportMatches(_ matches: [ImportMatch]) {
        guard !matches.isEmpty else { return }
        value = value.adding("matches", .array(matches.map(\.json)))
        let lines = ["matched by title, not by ISBN:"] + matches.map(\.summaryLine)
        view = .sections([view, .text(lines.joined(separator: "\n"))])
    }
}

extension ImportMatch {
    var json: JSONValue {
        .record([
            ("row", row.json), ("csvTitle", csvTitle.json), ("matchedTitle", matchedTitle.json),
            ("matchedAuthors", matchedAuthors.json), ("isbn", isbn.json), ("matchedBy", matchedBy.rawValue.json),
        ])
    }

    /// `row 2 'Dun' → Dune (Dune Chronicles #1), Frank Herbert`; a kind other than a title's is named.
    var summaryLine: String {
        func flat(_ text: String) -> String { TerminalText.sanitize(text, lines: .flatten) }
        let authors = matchedAuthors.isEmpty ? "" : ", " + flat(matchedAuthors.joined(separator: ", "))
        let kind = matchedBy == .title ? "" : " (by \(flat(matchedBy.rawValue)))"
        return "row \(row) '\(flat(csvTitle))' → \(flat(matchedTitle))" + authors + kind
    }
}
