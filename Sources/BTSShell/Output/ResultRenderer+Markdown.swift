import BTSTerminalText
import BooksTrackContract

/// `-o markdown`: GitHub-flavoured Markdown to paste into an issue or a note. A table is a pipe
/// table — a header row, a `---` row (numbers right-aligned), every column, no cell cut, no width —
/// with its footer as a paragraph under it; a record is a two-column Field/Value table; sections each
/// come under a `### Name` heading; text is as it is. Every cell is neutralised (`TerminalText`, line
/// breaks as spaces) and its `|` escaped as `\|`.
extension ResultRenderer {
    func markdown(_ value: JSONValue, view: ResultView) -> String {
        switch view {
        case .none:
            return ""
        case .text(let raw):
            let text = TerminalText.sanitize(raw)
            return text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
        case .chart(_, let rows, let columns):
            // The drawing is for a terminal; its figures make the table.
            return Self.markdownTable(columns: columns, rows: rows)
        case .record(let fields):
            let present = fields.filter { value[$0.key].map { !$0.isNull } ?? false }
            guard !present.isEmpty else { return "" }
            var lines = ["| Field | Value |", "| --- | --- |"]
            for field in present {
                let text = TableColumn(field.key, field.title, format: field.format).cell(value)
                lines.append("| " + Self.markdownCell(field.title) + " | " + Self.markdownCell(text) + " |")
            }
            return lines.joined(separator: "\n") + "\n"
        case .table(let columns, let rowsKey, let footer, let empty):
            let rows = rows(of: value, key: rowsKey)
            if rows.isEmpty, let empty { return Self.markdownParagraph(empty) }
            var output = columns.isEmpty ? "" : Self.markdownTable(columns: columns, rows: rows)
            if let footer { output += (output.isEmpty ? "" : "\n") + Self.markdownParagraph(footer) }
            return output
        case .sections(let views):
            return views.compactMap { view -> String? in
                let text = markdown(value, view: view)
                guard !text.isEmpty else { return nil }
                return view.markdownHeading.map { "### \($0)\n\n" + text } ?? text
            }.joined(separator: "\n")
        }
    }

    /// A pipe table of `rows` with every one of `columns`, whole.
    static func markdownTable(columns: [TableColumn], rows: [JSONValue]) -> String {
        guard !columns.isEmpty else { return "" }
        var lines = [
            markdownRow(columns.map(\.title)),
            markdownRow(columns.map { $0.alignment == .right ? "---:" : "---" }, escaped: false),
        ]
        for row in rows {
            lines.append(
                markdownRow(
                    columns.map { column in
                        switch column.format {
                        // No id is cut: the whole id, as in CSV.
                        case .jobID, .abbreviatedJobID: return column.csvCell(row)
                        default: return column.cell(row)
                        }
                    }
                )
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `| a | b |`, each cell made safe (``markdownCell(_:)``) unless `escaped` is false (the `---` row).
    static func markdownRow(_ cells: [String], escaped: Bool = true) -> String {
        "| " + cells.map { escaped ? markdownCell($0) : $0 }.joined(separator: " | ") + " |"
    }

    /// A cell's text on one line: controls neutralised (`TerminalText`), line breaks and tabs as
    /// spaces, `|` escaped as `\|` so it does not end the cell.
    static func markdownCell(_ text: String) -> String {
        var cell = ""
        for character in TerminalText.sanitize(text, lines: .flatten) {
            if character == "|" { cell.append("\\") }
            cell.append(character)
        }
        return cell
    }

    /// A sentence under a table (its footer, its empty text) as a paragraph of its own.
    static func markdownParagraph(_ text: String) -> String {
        let paragraph = TerminalText.sanitize(text)
        return paragraph.hasSuffix("\n") ? paragraph : paragraph + "\n"
    }
}

extension ResultView {
    /// This view's heading among sections (`### Errors`): a table's rows by their key, a record as
    /// the summary; text has none.
    var markdownHeading: String? {
        switch self {
        case .table(_, let rowsKey?, _, _):
            guard let first = rowsKey.first else { return nil }
            return first.uppercased() + rowsKey.dropFirst()
        case .table(_, nil, _, _): return "Rows"
        case .record: return "Summary"
        case .chart: return "Figures"
        case .none, .text, .sections: return nil
        }
    }
}
