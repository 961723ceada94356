import BTSLanguage
import BTSShell
import Foundation

/// Completion of a result's fields after `${_.`, `${LOOPVAR.` or `${_http.` (nested paths descend),
/// from the shapes ``ResultFieldScope`` knows at the cursor.
enum FieldCompletion {
    /// A `${NAME.PATH.PARTIAL` the cursor ends: the variable, the path before the last `.` and the
    /// field name typed so far (from byte `start` of the document).
    struct FieldPlace: Equatable {
        var name: String
        var path: [ValuePath.Component]
        var partial: String
        var start: Int
    }

    /// LSP's completion kind of a field.
    static let fieldKind = 5

    /// The fields a `${_.`, `${LOOPVAR.`, `${_http.` path can go on with (nested paths descend),
    /// those starting with what is typed; nil when the cursor is not after such a path or the
    /// path leads to no declared fields (then the prompt's completion answers).
    static func list(
        in index: LineIndex,
        at offset: Int,
        registry: CommandRegistry
    ) -> LanguageServerResults.CompletionList? {
        let lineBytes = index.lineBytes(index.line(of: offset))
        guard let place = fieldPlace(in: lineBytes, cursor: offset) else { return nil }
        let parsed = Parser.parse(index.text, name: "<document>")
        let scope = ResultFieldScope(script: parsed.script, registry: registry)
        guard let shape = scope.kind(of: place.name, path: place.path, at: offset)?.fields else { return nil }
        // Right after `${_.`, a failed command's `{error, body}` too.
        var offered = shape.fields.map { ($0, "") }
        if place.name == "_", place.path.isEmpty {
            offered += ResultShape.failure.fields.filter { shape[$0.name] == nil }.map { ($0, " (after a failure)") }
        }
        let range = index.range(place.start, offset)
        let items = offered.filter { $0.0.name.hasPrefix(place.partial) }.enumerated().map { position, entry in
            let (field, note) = entry
            return LanguageServerResults.CompletionItem(
                label: field.name,
                kind: fieldKind,
                sortText: String(format: "%05d", position),
                filterText: field.name,
                textEdit: .init(range: range, newText: field.name),
                detail: field.kind.name + (field.isOptional ? ", optional" : "") + note,
                documentation: field.summary
            )
        }
        return LanguageServerResults.CompletionList(isIncomplete: false, items: items)
    }

    /// The `${NAME.PATH.PARTIAL` that ends at byte `cursor` of `line` (a document's line, its
    /// offsets the document's); nil when the cursor is elsewhere.
    static func fieldPlace(in line: ArraySlice<UInt8>, cursor: Int) -> FieldPlace? {
        guard cursor >= line.startIndex, cursor <= line.endIndex else { return nil }
        var start = cursor
        while start > line.startIndex, isFieldPathByte(line[start - 1]) { start -= 1 }
        guard start - 2 >= line.startIndex, line[start - 2] == UInt8(ascii: "$"), line[start - 1] == UInt8(ascii: "{")
        else { return nil }
        if start - 3 >= line.startIndex, line[start - 3] == UInt8(ascii: "\\") { return nil }
        let inside = line[start..<cursor]
        guard let dot = inside.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let partial = inside[(dot + 1)...]
        guard partial.allSatisfy({ isFieldNameByte($0) }) else { return nil }
        guard
            case .success(.variable(let name, let path, _, _, nil)) = ValuePathParser.parse(
                inside[..<dot],
                baseOffset: 0
            )
        else { return nil }
        return FieldPlace(
            name: name,
            path: path.components,
            partial: String(decoding: partial, as: UTF8.self),
            start: dot + 1
        )
    }

    /// A byte of a field's name: a letter, a digit, `_` or `-`.
    static func isFieldNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// A byte of a `${…}` path before the cursor: a name's, `.`, `[`, `]`, `*`.
    static func isFieldPathByte(_ byte: UInt8) -> Bool {
        isFieldNameByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: "*")
    }
}
