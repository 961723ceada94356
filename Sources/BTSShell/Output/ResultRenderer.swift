import BTSLanguage
import BTSTerminalText
import BooksTrackContract

/// Turns a command's result into text for stdout in one of the four formats. The same value
/// feeds every format: JSON shows it whole, ndjson one object per row, csv the rows of the
/// table view with all of its columns, table the view fitted to the width.
public struct ResultRenderer: Sendable {
    public var format: OutputFormat
    /// ANSI styles allowed (a table's bold header, indented JSON's colours).
    public var colored: Bool
    /// Columns available; nil = no limit.
    public var width: Int?
    /// Indented JSON (on a terminal) or compact.
    public var prettyJSON: Bool

    public init(format: OutputFormat, colored: Bool = false, width: Int? = nil, prettyJSON: Bool = false) {
        self.format = format
        self.colored = colored
        self.width = width
        self.prettyJSON = prettyJSON
    }

    /// The text to print (ends in a newline unless empty).
    public func render(_ value: JSONValue, view: ResultView) -> String {
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
        case .table:
            return table(value, view: view)
        }
    }

    // MARK: CSV

    func csv(_ value: JSONValue, view: ResultView) -> String {
        if case .none = view { return "" }
        if case .chart(_, let rows, let columns) = view {
            let lines = [columns.map { Self.csvField($0.key) }.joined(separator: ",")]
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
    public static func csvField(_ text: String) -> String {
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
            var output = grid(columns: columns, rows: rows)
            if let footer {
                // Wrapped at spaces to the width (the terminal would break it mid-word).
                let lines = TerminalText.sanitize(footer).split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
                    width.map { DisplayWidth.wrap(String(line), width: max(20, $0)) } ?? [String(line)]
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
            var text = TerminalText.sanitize(TableColumn(field.key, field.title, format: field.format).cell(value), lines: .flatten)
            if let width {
                text = Self.truncate(text, to: max(8, width - keyWidth - 2))
            }
            output += ANSIStyle.bold.apply(title, enabled: colored) + "  " + text + "\n"
        }
        return output
    }

    func grid(columns allColumns: [TableColumn], rows: [JSONValue]) -> String {
        let allCells = rows.map { row in allColumns.map { TerminalText.sanitize($0.cell(row), lines: .flatten) } }
        // A column empty in every row (PAGES when no book has a page count) takes no room.
        var kept = allColumns.indices.filter { index in allCells.contains { !$0[index].isEmpty } }
        func natural(_ index: Int) -> Int {
            max(DisplayWidth.of(allColumns[index].title), allCells.map { DisplayWidth.of($0[index]) }.max() ?? 0)
        }
        var widths = kept.map(natural)
        if let width {
            // Optional columns go, lowest drop order first, while the primary column (the title)
            // would get less than its share.
            while true {
                let columns = kept.map { allColumns[$0] }
                widths = Self.fit(kept.map(natural), columns: columns, into: width)
                guard let primary = columns.firstIndex(where: \.isPrimary),
                      widths[primary] < Self.primaryShare(natural: natural(kept[primary]), total: width),
                      let drop = kept.indices.filter({ allColumns[kept[$0]].dropOrder != nil })
                          .min(by: { (allColumns[kept[$0]].dropOrder ?? 0) < (allColumns[kept[$1]].dropOrder ?? 0) })
                else { break }
                kept.remove(at: drop)
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
        return output
    }

    /// The width the primary column (the title) is given before any other flexible column grows:
    /// a third of the table, at least 24 columns, never more than its widest cell.
    static func primaryShare(natural: Int, total: Int) -> Int {
        min(natural, max(24, total / 3))
    }

    /// A width every flexible column is kept at (or its whole width when narrower) while the
    /// primary and sentence columns grow.
    static let readableWidth = 16

    /// What every other flexible column keeps (or its whole width when narrower) while the primary
    /// column grows to its share.
    static let narrowWidth = 10

    /// Fits the table into `total` columns. Fixed columns keep their width. Each flexible column
    /// starts at 6 columns (or its header's width); then the primary column (the title) grows to its
    /// share (``primaryShare(natural:total:)``) as long as the others can still get ``narrowWidth``,
    /// then a sentence column (`prefersWhole`, a reason) to its whole width as long as the others
    /// can still get ``readableWidth``; the rest goes one column at a time to the column furthest below its
    /// natural width. None grows past its natural (widest cell) width.
    static func fit(_ widths: [Int], columns: [TableColumn], into total: Int) -> [Int] {
        let separators = max(0, widths.count - 1) * 2
        guard widths.reduce(0, +) + separators > total else { return widths }
        let flexible = widths.indices.filter { columns[$0].isFlexible }
        guard !flexible.isEmpty else { return widths }
        let fixed = widths.indices.filter { !columns[$0].isFlexible }.map { widths[$0] }.reduce(0, +)
        var room = total - separators - fixed
        var result = widths
        let minimum = flexible.map { min(widths[$0], max(6, DisplayWidth.of(columns[$0].title))) }
        for (slot, index) in flexible.enumerated() { result[index] = minimum[slot] }
        room -= minimum.reduce(0, +)
        func grow(_ index: Int, to target: Int, keeping kept: Int = readableWidth) {
            let reserved = flexible.filter { $0 != index }
                .map { max(0, min(widths[$0], kept) - result[$0]) }.reduce(0, +)
            let give = max(0, min(target - result[index], room - reserved))
            result[index] += give
            room -= give
        }
        // The title first: the others keep ``narrowWidth`` meanwhile (a recommendation's REASON and
        // AUTHORS at 60 columns left the title 11).
        for index in flexible where columns[index].isPrimary {
            grow(index, to: primaryShare(natural: widths[index], total: total), keeping: narrowWidth)
        }
        for index in flexible where columns[index].prefersWhole { grow(index, to: widths[index]) }
        // Hand out the rest one column at a time to the column furthest below its natural width.
        while room > 0 {
            var pick: Int?
            var best = Double.infinity
            for index in flexible where result[index] < widths[index] {
                let ratio = Double(result[index]) / Double(widths[index])
                if ratio < best { best = ratio; pick = index }
            }
            guard let index = pick else { break }
            result[index] += 1
            room -= 1
        }
        return result
    }

    /// `text` cut to `width` display columns, ending in "…" when cut.
    public static func truncate(_ text: String, to width: Int) -> String {
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
