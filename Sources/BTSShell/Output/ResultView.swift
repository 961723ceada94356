import BooksTrackContract
import Foundation

/// One column of a table view.
package struct TableColumn: Sendable, Hashable {
    package enum Alignment: Sendable, Hashable { case left, right }
    /// How a cell's value is shown.
    package enum Format: Sendable, Hashable {
        /// Plain text (arrays joined with ", ").
        case text
        /// A number with a fixed count of decimals.
        case decimal(Int)
        /// A fraction 0…1 shown as a percentage.
        case percent
        /// A 10-cell bar of this column's number out of the number in column `total`.
        case bar(total: String)
        /// A yes/no fact: a table shows `yes` for true and leaves false blank (so a column that is
        /// false in every row takes no room); CSV keeps `true`/`false`.
        case mark
        /// A job id (`SessionJob.displayID`): a plausible id whole, any other cut and neutralised;
        /// CSV keeps the whole id.
        case jobID
        /// A job id cut to its first `length` characters on a terminal (`jobs`: git's abbreviated
        /// ids); CSV keeps the whole id.
        case abbreviatedJobID(length: Int)
    }

    /// The key in each row object.
    package var key: String
    /// The header.
    package var title: String
    package var alignment: Alignment
    package var format: Format
    /// Whether the column may be shortened (with "…") to fit the width.
    package var isFlexible: Bool
    /// A flexible column that reads badly when cut (a sentence, such as a recommendation's reason):
    /// after the primary column's share it gets its whole width, as long as the other flexible
    /// columns keep a readable width.
    package var prefersWhole: Bool
    /// The column that yields last (a book's title): it gets its share of the width before any
    /// other flexible column grows, and optional columns are dropped before it is cut below it.
    package var isPrimary: Bool
    /// Shown only when there is room: when the primary column would get less than its share, the
    /// optional columns are left out, lowest `dropOrder` first (nil: always shown).
    package var dropOrder: Int?
    /// Chosen by name (`--columns`): shown even when it is empty in every row, holds one value in
    /// every row, or is optional and the table is narrow.
    package var isChosen = false

    package init(
        _ key: String,
        _ title: String,
        alignment: Alignment = .left,
        format: Format = .text,
        flexible: Bool = false,
        prefersWhole: Bool = false,
        primary: Bool = false,
        dropOrder: Int? = nil
    ) {
        self.key = key
        self.title = title
        self.alignment = alignment
        self.format = format
        self.isFlexible = flexible || prefersWhole || primary
        self.prefersWhole = prefersWhole
        self.isPrimary = primary
        self.dropOrder = dropOrder
    }

    /// A book's title: flexible, and the last column to be cut.
    package static let bookTitle = TableColumn("title", "TITLE", primary: true)

    /// This column, left out of a table too narrow for the primary column's share (see ``dropOrder``).
    package func optional(_ order: Int) -> TableColumn {
        var column = self
        column.dropOrder = order
        return column
    }

    /// A right-aligned numeric column.
    package static func number(_ key: String, _ title: String, decimals: Int = 0) -> TableColumn {
        TableColumn(key, title, alignment: .right, format: decimals == 0 ? .text : .decimal(decimals))
    }

    /// The text of this column's cell in `row` for CSV: the table's, except that a mark keeps its `true`/`false`.
    package func csvCell(_ row: JSONValue) -> String {
        if format == .mark || format == .jobID, let value = row[key] { return value.interpolationText }
        if case .abbreviatedJobID = format, let value = row[key] { return value.interpolationText }
        return cell(row)
    }

    /// The text of this column's cell in `row`.
    package func cell(_ row: JSONValue) -> String {
        guard let value = row[key] else { return "" }
        switch (format, value) {
        case (.decimal(let decimals), .number(let number)):
            return String(format: "%.\(decimals)f", number)
        case (.percent, .number(let number)):
            return String(format: "%.0f%%", number * 100)
        case (.bar(let totalKey), .number(let number)):
            guard let total = row[totalKey]?.doubleValue, total > 0 else { return "" }
            let filled = Int((min(1, max(0, number / total)) * 10).rounded())
            return String(repeating: "█", count: filled) + String(repeating: "░", count: 10 - filled)
        case (.mark, .bool(let flag)):
            return flag ? "yes" : ""
        case (.jobID, .string(let id)):
            return SessionJob.displayID(id)
        case (.abbreviatedJobID(let length), .string(let id)):
            return SessionJob.isPlausibleID(id) ? String(id.prefix(length)) : SessionJob.displayID(id)
        case (_, .array(let elements)):
            return elements.map(\.interpolationText).joined(separator: ", ")
        default:
            return value.interpolationText
        }
    }
}

/// How a command's result is shown in table mode (and which rows ndjson/csv use). The data
/// itself is always the result value; JSON shows all of it.
package indirect enum ResultView: Sendable, Hashable {
    /// Nothing to show (the value still becomes `$_`).
    case none
    /// Free text (help, echo); JSON mode prints the value instead.
    case text(String)
    /// Rows from the array at `rowsKey` of the value (or the value itself when nil).
    case table(columns: [TableColumn], rowsKey: String?, footer: String?, empty: String?)
    /// Selected top-level keys as "key  value" lines.
    case record(fields: [RecordField])
    /// Several views one after the other, separated by a blank line.
    case sections([ResultView])
    /// A drawing (`library stats`' bar charts) shown only in table mode; like any data it is JSON
    /// (the value) when stdout is not a terminal, and `rows` give ndjson (one per line) and csv
    /// (with `columns`).
    case chart(String, rows: [JSONValue], columns: [TableColumn])

    /// The first table in the view (the rows of ndjson and csv).
    var firstTable: (columns: [TableColumn], rowsKey: String?)? {
        switch self {
        case .table(let columns, let rowsKey, _, _): return (columns, rowsKey)
        case .sections(let views):
            for view in views { if let table = view.firstTable { return table } }
            return nil
        default: return nil
        }
    }

    /// The first record in the view.
    var firstRecord: [RecordField]? {
        switch self {
        case .record(let fields): return fields
        case .sections(let views): return views.lazy.compactMap(\.firstRecord).first
        default: return nil
        }
    }
}

/// One line of a record view.
package struct RecordField: Sendable, Hashable {
    package var key: String
    package var title: String
    /// How the value is shown (a job's progress fraction as a percentage).
    package var format: TableColumn.Format
    package init(_ key: String, _ title: String? = nil, format: TableColumn.Format = .text) {
        self.key = key
        self.title = title ?? key
        self.format = format
    }
}
