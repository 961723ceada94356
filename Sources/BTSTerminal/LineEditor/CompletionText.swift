import BTSTerminalText

/// Pure text helpers for completion: common prefixes, terminal display widths, column layout.
package enum CompletionText {
    /// The longest common prefix of `strings`, compared by grapheme cluster (Character), so a
    /// prefix never ends inside "é" or an emoji sequence. Empty for an empty array.
    package static func longestCommonPrefix(_ strings: [String]) -> String {
        guard var prefix = strings.first.map({ Substring($0) }) else { return "" }
        for string in strings.dropFirst() {
            var end = prefix.startIndex
            var other = string.startIndex
            while end < prefix.endIndex, other < string.endIndex, prefix[end] == string[other] {
                end = prefix.index(after: end)
                other = string.index(after: other)
            }
            prefix = prefix[..<end]
            if prefix.isEmpty { break }
        }
        return String(prefix)
    }

    /// Columns `text` occupies on a terminal: ANSI CSI/OSC sequences and controls count 0,
    /// East Asian wide characters and emoji count 2, combining marks join their base (1).
    package static func displayWidth(_ text: String) -> Int {
        var total = 0
        for character in stripEscapes(text) {
            total += DisplayWidth.width(of: character)
        }
        return total
    }

    /// `text` without ANSI escape sequences (CSI `ESC [ ... final`, OSC `ESC ] ... BEL|ST`, `ESC x`).
    package static func stripEscapes(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{1B}") else { return text }
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                out.append(scalar)
                continue
            }
            guard let kind = scalars.next() else { break }
            if kind == "[" {
                while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
            } else if kind == "]" {
                var previous: Unicode.Scalar = " "
                while let next = scalars.next() {
                    if next == "\u{07}" || (previous == "\u{1B}" && next == "\\") { break }
                    previous = next
                }
            }
        }
        return String(out)
    }

    /// Lays `items` out in columns that fit `width` terminal columns, filled top to bottom
    /// then left to right (like `ls`), two spaces between columns, with the fewest rows that fit.
    /// Items wider than `width` are cut with "…". Returns the lines (no trailing spaces).
    package static func columns(_ items: [String], width: Int, gap: Int = 2) -> [String] {
        guard !items.isEmpty else { return [] }
        let width = max(width, 1)
        let cells = items.map { fit($0, width: width) }
        let widths = cells.map(displayWidth)
        var chosen = (columns: 1, rows: cells.count, columnWidths: [widths.max() ?? 0])
        var columnCount = min(cells.count, max(1, width / (1 + gap)))
        while columnCount > 1 {
            let rows = (cells.count + columnCount - 1) / columnCount
            let used = (cells.count + rows - 1) / rows
            var columnWidths: [Int] = []
            for column in 0..<used {
                let slice = widths[(column * rows)..<min(widths.count, (column + 1) * rows)]
                columnWidths.append(slice.max() ?? 0)
            }
            let total = columnWidths.reduce(0, +) + gap * (used - 1)
            if total <= width {
                chosen = (used, rows, columnWidths)
                break
            }
            columnCount -= 1
        }
        var lines: [String] = []
        for row in 0..<chosen.rows {
            var line = ""
            for column in 0..<chosen.columns {
                let index = column * chosen.rows + row
                guard index < cells.count else { break }
                let isLast = column == chosen.columns - 1 || index + chosen.rows >= cells.count
                line += cells[index]
                if !isLast {
                    line += String(repeating: " ", count: chosen.columnWidths[column] - widths[index] + gap)
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// `text` cut to at most `width` columns, ending in "…" when cut (escapes removed when cut).
    static func fit(_ text: String, width: Int) -> String {
        guard displayWidth(text) > width else { return text }
        var out = ""
        var used = 0
        for character in stripEscapes(text) {
            let w = DisplayWidth.width(of: character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }
}
