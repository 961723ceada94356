import BTSLanguage
import BTSTerminalText
import BooksTrackContract

/// Turns a command's result into text for stdout in one of the output formats. The same value
/// feeds every format: JSON shows it whole, ndjson one object per row, csv the rows of the
/// table view with all of its columns, markdown the view as pipe tables with all of its columns,
/// table the view fitted to the width.
package struct ResultRenderer: Sendable {
    package var format: OutputFormat
    /// ANSI styles allowed (a table's bold header, indented JSON's colours).
    package var colored: Bool
    /// Columns available; nil = no limit.
    package var width: Int?
    /// Indented JSON (on a terminal) or compact.
    package var prettyJSON: Bool
    /// Tables as one block of `FIELD  value` lines per row (`set expanded`): `on` always, `auto`
    /// when the table cannot fit ``width`` without cutting the title below ``expandedTitleMinimum``.
    package var expanded: ShellSettings.Toggle

    /// Below this many columns for the title (when its cells are wider) `set expanded auto` shows
    /// the rows as blocks.
    package static let expandedTitleMinimum = 20

    package init(
        format: OutputFormat,
        colored: Bool = false,
        width: Int? = nil,
        prettyJSON: Bool = false,
        expanded: ShellSettings.Toggle = .off
    ) {
        self.format = format
        self.colored = colored
        self.width = width
        self.prettyJSON = prettyJSON
        self.expanded = expanded
    }

    /// The text to print (ends in a newline unless empty).
    package func render(_ value: JSONValue, view: ResultView) -> String {
        switch format {
        case .json:
            if case .none = view { return "" }
            guard prettyJSON else { return value.compactJSON + "\n" }
            return (colored ? value.coloredJSON : value.prettyJSON) + "\n"
        case .ndjson:
            if case .none = view { return "" }
            if case .chart(_, let rows, _) = view { return rows.map { $0.compactJSON + "\n" }.joined() }
            if let table = view.firstTable {
                return rows(of: value, key: table.rowsKey).map { $0.compactJSON + "\n" }.joined()
            }
            return value.compactJSON + "\n"
        case .csv:
            return csv(value, view: view)
        case .markdown:
            return markdown(value, view: view)
        case .table:
            return table(value, view: view)
        }
    }

    // MARK: CSV

    func csv(_ value: JSONValue, view: ResultView) -> String {
        if case .none = view { return "" }
        if case .chart(_, let rows, let columns) = view {
            let lines =
                [columns.map { Self.csvField($0.key) }.joined(separator: ",")]
                + rows.map { row in columns.map { Self.csvField($0.csvCell(row)) }.joined(separator: ",") }
            return lines.joined(separator: "\n") + "\n"
        }
        if let table = view.firstTable {
            var lines = [table.columns.map { Self.csvField($0.key) }.joined(separator: ",")]
            for row in rows(of: value, key: table.rowsKey) {
                lines.append(table.columns.map { Self.csvField($0.csvCell(row)) }.joined(separator: ","))
            }
            return lines.joined(separator: "\n") + "\n"
        }
        if let fields = view.firstRecord {
            let header = fields.map { Self.csvField($0.key) }.joined(separator: ",")
            // The same cell text as a table column's (arrays joined with ", "), so `authors` reads
            // alike in every command's CSV.
            let row = fields.map { Self.csvField(TableColumn($0.key, $0.title).cell(value)) }.joined(separator: ",")
            return header + "\n" + row + "\n"
        }
        return "value\n" + Self.csvField(value.interpolationText) + "\n"
    }

    /// RFC 4180: fields with a comma, quote, CR or LF are quoted, quotes doubled.
    /// Controls neutralised and CR/LF checked per scalar (see `TerminalText.csvField`).
    package static func csvField(_ text: String) -> String {
        TerminalText.csvField(text)
    }

    func rows(of value: JSONValue, key: String?) -> [JSONValue] {
        let container = key.flatMap { value[$0] } ?? (key == nil ? value : .array([]))
        return container.arrayValue ?? []
    }

    // MARK: Table

    func table(_ value: JSONValue, view: ResultView) -> String {
        switch view {
        case .none: return ""
        case .text(let raw), .chart(let raw, _, _):
            let text = TerminalText.sanitize(raw)
            return text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
        case .record(let fields): return record(value, fields: fields)
        case .table(let columns, let rowsKey, let footer, let empty):
            let rows = rows(of: value, key: rowsKey)
            // The empty text and the footer may quote the user's words (an unmatched query).
            if rows.isEmpty, let empty { return TerminalText.sanitize(empty) + "\n" }
            // `--columns` naming none this table has: no grid, the footer still says what was found.
            var output = columns.isEmpty ? "" : grid(columns: columns, rows: rows)
            if let footer {
                // Wrapped at spaces to the width (the terminal would break it mid-word).
                let lines = TerminalText.sanitize(footer).split(separator: "\n", omittingEmptySubsequences: false)
                    .flatMap { line in
                        width.map { ProseWrap.wrapLine(String(line), width: max(20, $0)) } ?? [String(line)]
                    }
                output += lines.joined(separator: "\n") + "\n"
            }
            return output
        case .sections(let views):
            return views.map { table(value, view: $0) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }
    }

    func record(_ value: JSONValue, fields: [RecordField]) -> String {
        let present = fields.filter { value[$0.key].map { !$0.isNull } ?? false }
        let keyWidth = present.map { DisplayWidth.of($0.title) }.max() ?? 0
        var output = ""
        for field in present {
            let title = field.title + String(repeating: " ", count: keyWidth - DisplayWidth.of(field.title))
            var text = TerminalText.sanitize(
                TableColumn(field.key, field.title, format: field.format).cell(value),
                lines: .flatten
            )
            if let width {
                text = Self.truncate(text, to: max(8, width - keyWidth - 2))
            }
            output += ANSIStyle.bold.apply(title, enabled: colored) + "  " + text + "\n"
        }
        return output
    }

    func grid(columns allColumns: [TableColumn], rows: [JSONValue]) -> String {
        let allCells = rows.map { row in allColumns.map { TerminalText.sanitize($0.cell(row), lines: .flatten) } }
        // One width measurement per cell.
        let cellWidths = allCells.map { row in row.map(DisplayWidth.of) }
        // A column empty in every row (PAGES when no book has a page count) takes no room; a column
        // holding one value in every row (IN LIBRARY: yes) becomes a note under the table.
        var notes: [String] = []
        var kept: [Int] = []
        for index in allColumns.indices {
            guard allColumns[index].isChosen || allCells.contains(where: { !$0[index].isEmpty }) else { continue }
            if let value = Self.soleValue(allCells.map { $0[index] }), !allColumns[index].isPrimary,
                !allColumns[index].isChosen
            {
                notes.append("\(allColumns[index].title): \(value) (all rows)")
                continue
            }
            kept.append(index)
        }
        if kept.isEmpty {
            // Every column was one value: the table keeps them rather than show no column.
            kept = allColumns.indices.filter { index in
                allColumns[index].isChosen || allCells.contains { !$0[index].isEmpty }
            }
            notes = []
        }
        let layoutColumns = allColumns.indices.map { index in
            let column = allColumns[index]
            let role: TableLayout.Column.Role =
                column.isPrimary
                ? .primary
                : column.prefersWhole ? .sentence : column.isFlexible ? .flexible : .fixed
            var measured = TableLayout.Column(
                header: DisplayWidth.of(column.title),
                cells: cellWidths.map { $0[index] },
                role: role
            )
            // Bounded: no column is wider than the table.
            if let width {
                measured = TableLayout.Column(
                    natural: min(measured.natural, max(width, measured.floor)),
                    typical: measured.typical,
                    floor: measured.floor,
                    role: role
                )
            }
            return measured
        }
        if expanded == .on { return blocks(columns: allColumns, cells: allCells) }
        var widths = kept.map { layoutColumns[$0].natural }
        if let width {
            // Optional columns go, lowest drop order first, while the primary column (the title)
            // would get less than its share.
            while true {
                widths = TableLayout.widths(kept.map { layoutColumns[$0] }, total: width)
                guard let primary = kept.firstIndex(where: { allColumns[$0].isPrimary }),
                    widths[primary]
                        < TableLayout.primaryShare(natural: layoutColumns[kept[primary]].natural, total: width),
                    let drop = kept.indices.filter({
                        allColumns[kept[$0]].dropOrder != nil && !allColumns[kept[$0]].isChosen
                    })
                    .min(by: { (allColumns[kept[$0]].dropOrder ?? 0) < (allColumns[kept[$1]].dropOrder ?? 0) })
                else { break }
                kept.remove(at: drop)
            }
            // `set expanded auto`: a table that cannot fit, or fits only by cutting the title
            // below its minimum, shows its rows as blocks.
            let primary = kept.firstIndex { allColumns[$0].isPrimary }
            let titleTooNarrow =
                primary.map {
                    widths[$0] < min(layoutColumns[kept[$0]].natural, Self.expandedTitleMinimum)
                } ?? false
            let overflows = widths.reduce(0, +) + max(0, widths.count - 1) * TableLayout.gap > width
            if expanded == .auto, titleTooNarrow || overflows {
                return blocks(columns: allColumns, cells: allCells)
            }
        }
        let columns = kept.map { allColumns[$0] }
        let cells = allCells.map { row in kept.map { row[$0] } }
        func line(_ texts: [String], header: Bool) -> String {
            var parts: [String] = []
            for (index, column) in columns.enumerated() {
                let text = Self.truncate(texts[index], to: widths[index])
                let padding = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(text)))
                let isLast = index == columns.count - 1
                var cell = column.alignment == .right ? padding + text : text + (isLast ? "" : padding)
                if header { cell = ANSIStyle.bold.apply(cell, enabled: colored) }
                parts.append(cell)
            }
            var text = parts.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }
        var output = line(columns.map(\.title), header: true)
        output += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in cells { output += line(row, header: false) }
        // A note is prose: wrapped between words, never cut.
        for note in notes {
            output += (width.map { ProseWrap.wrapLine(note, width: $0) } ?? [note]).joined(separator: "\n") + "\n"
        }
        return output
    }

    /// The rows as blocks of `FIELD  value` lines (psql's expanded display), a blank line between
    /// blocks; a value longer than the width wraps under itself. Columns empty in a row are left out.
    func blocks(columns: [TableColumn], cells: [[String]]) -> String {
        let keyWidth = columns.map { DisplayWidth.of($0.title) }.max() ?? 0
        let indent = String(repeating: " ", count: keyWidth + 2)
        var blocks: [String] = []
        for row in cells {
            var block = ""
            for (index, column) in columns.enumerated() where !row[index].isEmpty {
                let title = column.title + String(repeating: " ", count: keyWidth - DisplayWidth.of(column.title))
                let lines =
                    width.map { DisplayWidth.wrap(row[index], width: max(8, $0 - keyWidth - 2)) } ?? [row[index]]
                for (number, text) in lines.enumerated() {
                    let fitted = width.map { Self.truncate(text, to: max(8, $0 - keyWidth - 2)) } ?? text
                    block +=
                        (number == 0 ? ANSIStyle.bold.apply(title, enabled: colored) + "  " : indent) + fitted + "\n"
                }
            }
            blocks.append(block)
        }
        return blocks.joined(separator: "\n")
    }

    /// The one value every cell holds, when there are two cells or more and none is empty.
    static func soleValue(_ cells: [String]) -> String? {
        guard cells.count >= 2, let first = cells.first, !first.isEmpty, cells.allSatisfy({ $0 == first }) else {
            return nil
        }
        return first
    }

    /// `text` cut to `width` display columns, ending in "…" when cut.
    package static func truncate(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var result = ""
        var used = 0
        for character in text {
            let next = DisplayWidth.advance(used, by: character)
            if next > width - 1 { break }
            result.append(character)
            used = next
        }
        return result + "…"
    }
}
