import BTSLanguage
import BTSTerminal

/// What unfinished input at the prompt leaves open, and so which continuation prompt the next line
/// gets: `'> ` inside a single-quoted string, `"> ` inside a double-quoted one, `${> ` inside `${`,
/// `...> ` after a trailing `\` or inside a block (as psql says which quote it waits for).
enum OpenInput: Sendable, Hashable, CaseIterable {
    case singleQuote, doubleQuote, brace, block

    /// The marker of its continuation prompt.
    var marker: String {
        switch self {
        case .singleQuote: "'> "
        case .doubleQuote: "\"> "
        case .brace: "${> "
        case .block: PromptRenderer.blockMarker
        }
    }

    /// What `text` leaves open; nil when it is complete. The parser's incomplete-input diagnostics
    /// point at what opened it (a quote, `${`, a `\`, a block's keyword); the innermost wins: the
    /// lexical one opened last, else the block.
    static func of(_ text: String) -> OpenInput? {
        let open = Parser.parse(text).diagnostics.filter(\.isIncompleteInput)
        guard !open.isEmpty else { return nil }
        let bytes = Array(text.utf8)
        let lexical = open.compactMap { diagnostic -> (offset: Int, kind: OpenInput)? in
            let offset = diagnostic.range.offset
            guard offset >= 0, offset < bytes.count else { return nil }
            switch bytes[offset] {
            case UInt8(ascii: "'"): return (offset, .singleQuote)
            case UInt8(ascii: "\""): return (offset, .doubleQuote)
            case UInt8(ascii: "$"): return (offset, .brace)
            default: return nil
            }
        }
        return lexical.max { $0.offset < $1.offset }?.kind ?? .block
    }
}
