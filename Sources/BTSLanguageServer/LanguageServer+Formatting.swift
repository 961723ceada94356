import BTSLanguage
import BooksTrackContract

extension LanguageServer {
    /// `textDocument/formatting`: `bts fmt`'s layout as one edit of the whole document; none when
    /// it is formatted already or has syntax errors (which the diagnostics show). Kept for the
    /// document's generation: code action requests (at every move of the cursor) ask again.
    func formatting(_ document: Document) -> [LanguageServerResults.TextEdit] {
        if let last = lastFormatting, last.uri == document.uri, last.generation == document.generation {
            return last.edits
        }
        var edits: [LanguageServerResults.TextEdit] = []
        if let formatted = formatted(document), formatted != document.text {
            edits = [.init(range: Self.range(0, document.index.bytes.count, in: document.index), newText: formatted)]
        }
        lastFormatting = (document.uri, document.generation, edits)
        return edits
    }

    /// `bts fmt`'s layout of the document; nil when it is over ``maxDocument`` or has syntax errors.
    private func formatted(_ document: Document) -> String? {
        guard document.index.bytes.count <= Self.maxDocument,
            case .success(let formatted) = ScriptFormatter.format(document.text, name: "<document>")
        else { return nil }
        return formatted
    }

    /// `textDocument/rangeFormatting`: the lines `range` touches laid out as `bts fmt` lays out the
    /// whole document (so a line in a block is indented for its depth), as one edit per changed
    /// line or group of lines (``FormattedLines``); a group reaching past those lines is left as
    /// it is, and so is every line outside them. A range ending at the start of a line leaves that
    /// line out. Over the whole document the edits make the whole document's formatting.
    func rangeFormatting(_ document: Document, _ range: TextChange.Span) -> [LanguageServerResults.TextEdit] {
        guard let formatted = formatted(document) else { return [] }
        let index = document.index
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
            edits.append(
                .init(range: Self.range(start, stop, in: index), newText: String(decoding: newText, as: UTF8.self))
            )
        }
        return edits
    }
}
