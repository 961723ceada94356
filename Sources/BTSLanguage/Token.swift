/// A lexical token: a word or a command separator.
package struct Token: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case word(Word)
        /// `;`
        case semicolon
        /// An unquoted `|` and the raw text after it to the end of the line (a `/bin/sh` pipeline).
        case pipe(String)
        /// An unescaped line break.
        case newline
        /// End of input (zero-length range at the end).
        case end
    }

    package var kind: Kind
    package var range: SourceRange
    /// A lexical error was reported inside this word, or (on a separator) somewhere between the
    /// previous separator and this one. The parser drops such commands.
    package var hasError: Bool

    package init(kind: Kind, range: SourceRange, hasError: Bool = false) {
        self.kind = kind
        self.range = range
        self.hasError = hasError
    }

    /// The word, if this is a word token.
    package var word: Word? {
        if case .word(let word) = kind { return word }
        return nil
    }

    /// The pipeline text, if this is a pipe token.
    package var pipeline: String? {
        if case .pipe(let text) = kind { return text }
        return nil
    }
}
