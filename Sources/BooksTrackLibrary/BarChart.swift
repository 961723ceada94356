/// Horizontal bar charts as plain text lines, for `stats`. Pure: same input, same lines.
///
/// Each line is `label  bar count`: labels left-aligned to the longest, bars scaled so the
/// largest value fills the width left over, counts after the bar. No line is wider than `width`
/// columns (labels are cut with `…` when they would leave no room for a bar); a non-zero value
/// always shows at least a sliver.
package enum BarChart {
    package enum Style: Sendable, Hashable {
        /// Full blocks with eighth-block ends (`█▏▎▍▌▋▊▉`).
        case blocks
        /// `#` only, for terminals without Unicode.
        case ascii
    }

    /// The narrowest chart: one-column labels, a one-column bar.
    package static let minimumWidth = 5

    package static func render(_ rows: [(label: String, value: Int)], width: Int, style: Style = .blocks) -> [String] {
        guard !rows.isEmpty else { return [] }
        let width = max(width, minimumWidth)
        let values = rows.map { max(0, $0.value) }
        let countWidth = values.map { String($0).count }.max() ?? 1
        var labelWidth = rows.map { $0.label.count }.max() ?? 0
        // label, space, bar (at least 1 column), space, count.
        let room = width - countWidth - 2
        if labelWidth > room - 1 { labelWidth = max(1, room - 1) }
        let barWidth = max(1, width - labelWidth - countWidth - 2)
        let largest = values.max() ?? 0
        return zip(rows, values).map { row, value in
            let label = fit(row.label, labelWidth)
            let bar = self.bar(value: value, largest: largest, columns: barWidth, style: style)
            let gap = String(repeating: " ", count: labelWidth - label.count)
            return label + gap + " " + bar + (bar.isEmpty ? "" : " ") + String(value)
        }
    }

    /// Convenience for the library's figures.
    package static func render(_ counts: [LibraryStats.Count], width: Int, style: Style = .blocks) -> [String] {
        render(counts.map { ($0.label, $0.count) }, width: width, style: style)
    }

    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    static func bar(value: Int, largest: Int, columns: Int, style: Style) -> String {
        guard value > 0, largest > 0 else { return "" }
        let fraction = Double(value) / Double(largest)
        switch style {
        case .ascii:
            let cells = max(1, Int((fraction * Double(columns)).rounded()))
            return String(repeating: "#", count: min(cells, columns))
        case .blocks:
            let units = max(1, min(columns * 8, Int((fraction * Double(columns * 8)).rounded())))
            let full = units / 8
            let rest = units % 8
            return String(repeating: "█", count: full) + (rest > 0 ? String(eighths[rest - 1]) : "")
        }
    }

    static func fit(_ label: String, _ width: Int) -> String {
        guard label.count > width else { return label }
        guard width > 1 else { return String(label.prefix(width)) }
        return String(label.prefix(width - 1)) + "…"
    }
}
