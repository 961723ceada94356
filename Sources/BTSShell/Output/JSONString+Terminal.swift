import BTSTerminalText
import BooksTrackContract

extension JSONString.Escaping {
    /// The shell's JSON: every scalar a terminal would obey (`TerminalText.needsWork`: C0, DEL, C1,
    /// bidirectional controls) escaped, so JSON shown or piped carries no raw control.
    static let terminal = JSONString.Escaping(
        shortBackspaceAndFormFeed: false,
        alsoEscaped: { TerminalText.needsWork($0) }
    )
}

extension JSONValue.TokenMarks {
    /// jq's colours: keys bold blue, strings green, numbers cyan, `true`/`false` yellow, `null` dim.
    static let terminal = JSONValue.TokenMarks(
        key: mark(.jsonKey),
        string: mark(.green),
        number: mark(.cyan),
        boolean: mark(.yellow),
        null: mark(.dim)
    )

    private static func mark(_ style: ANSIStyle) -> Mark {
        Mark(open: style.rawValue, close: ANSIStyle.reset.rawValue)
    }
}
