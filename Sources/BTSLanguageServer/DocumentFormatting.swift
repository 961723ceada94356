import BTSLanguage
import BooksTrackContract

/// `textDocument/formatting` and `textDocument/rangeFormatting`: `bts fmt`'s layout
/// (``ScriptFormatter``) of a document as LSP edits, for the whole text or the lines a range
/// touches (``FormattedLines``). None for a document with syntax errors (the diagnostics show them).
enum DocumentFormatting {
    /// `bts fmt`'s layout of `index`'s text; nil when it is over `maxBytes` or has syntax errors.
    static func formatted(_ index: LineIndex, maxBytes: Int) -> String? {
        guard index.bytes.count <= maxBytes,
            case .success(let formatted) = ScriptFormatter.format(index.text, name: "<document>")
        else { return nil }
        return formatted
    }

    /// The layout `formatted` as one edit of the whole document; none when it is formatted already.
    static func whole(_ index: LineIndex, formatted: String?) -> [LanguageServerResults.TextEdit] {
        guard let formatted, formatted != index.text else { return [] }
        return [.init(range: index.range(0, index.bytes.count), newText: formatted)]
    }

    /// The lines `range` touches laid out as `formatted` (the whole document's layout) lays them
    /// out (so a line in a block is indented for its depth), as one edit per changed line or group
    /// of lines (``FormattedLines``); a group reaching past those lines is left as it is, and so is
    /// every line outside them. A range ending at the start of a line leaves that line out. Over
    /// the whole document the edits make the whole document's formatting.
    static func range(
        _ index: LineIndex,
        _ range: TextChange.Span,
        formatted: String?
    ) -> [LanguageServerResults.TextEdit] {
        guard let formatted else { return [] }
        var (from, to) = (range.start, range.end)
        if (to.line, to.character) < (from.line, from.character) { (from, to) = (to, from) }
        let first = max(0, from.line)
        let end = to.line + (to.character > 0 || to.line == from.line ? 1 : 0)
        guard first < end else { return [] }
        // A last empty line (after the text's final line break) is no line of its own here.
        let lineCount = index.lineStarts.last == index.bytes.count ? index.lineCount - 1 : index.lineCount
        let original = (0..<lineCount).map { index.lineBytes($0) }
        var formattedLines = Array(formatted.utf8).split(separator: 10, omittingEmptySubsequences: false)
        if formattedLines.last?.isEmpty == true { formattedLines.removeLast() }
        var edits: [LanguageServerResults.TextEdit] = []
        for group in FormattedLines.groups(original: original, formatted: formattedLines) {
            let lines = group.original
            guard lines.lowerBound >= first, lines.upperBound <= end, lines.lowerBound < end else { continue }
            let start = lines.lowerBound < index.lineCount ? index.lineStarts[lines.lowerBound] : index.bytes.count
            let stop = lines.upperBound < index.lineCount ? index.lineStarts[lines.upperBound] : index.bytes.count
            var newText: [UInt8] = []
            for line in group.formatted {
                newText.append(contentsOf: formattedLines[line])
                newText.append(10)
            }
            guard newText[...] != index.bytes[start..<stop] else { continue }
            edits.append(.init(range: index.range(start, stop), newText: String(decoding: newText, as: UTF8.self)))
        }
        return edits
    }
}
