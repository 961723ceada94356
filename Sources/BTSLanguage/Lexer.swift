import BTSTerminalText

/// Splits command text into words and separators.
///
/// Rules: words are separated by blanks; `;` and line breaks end a command; `#` at the start of a
/// word starts a comment to the end of the line; `'…'` is literal; `"…"` allows `\" \\ \n \t \$`
/// escapes and interpolation; bare words allow `\x` (the character itself) and interpolation;
/// a backslash before a line break joins the lines. Interpolation: `$name`, `$1`, `$_`, `$?`,
/// `${name.key[0]}`, `${name.list[*].key}` (a list), `${1:-default}`, `$#`, `$@`; a `${` ends on
/// its line. A `$` not followed by a name is literal. An unquoted `|` ends the command's words: the
/// rest of the line is a pipeline for `/bin/sh` (one `.pipe` token), and a trailing `\` carries it
/// on to the next line (the backslash and line break stay in its text: `/bin/sh` joins them).
package struct Lexer {
    private let bytes: [UInt8]
    private var index = 0
    private var tokens: [Token] = []
    private var diagnostics: [Diagnostic] = []
    private var pendingError = false

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Tokenizes a source file. The token list always ends with `.end`.
    package static func tokenize(_ source: SourceFile) -> (tokens: [Token], diagnostics: [Diagnostic]) {
        var lexer = Lexer(bytes: source.bytes)
        lexer.run()
        return (lexer.tokens, lexer.diagnostics)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
    }

    static func isNameByte(_ byte: UInt8) -> Bool { isNameStart(byte) || isDigit(byte) }

    /// The first position from `start` on whose byte `stops` flags (or the end), 8 bytes at a
    /// time: `stops` answers for a word of 8 bytes as `ByteWords` does.
    @inline(__always)
    private func runEnd(from start: Int, until stops: (UInt64) -> UInt64) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return start }
            var index = start
            while index < buffer.count {
                let remaining = buffer.count - index
                // (Past the end, bytes of 0x80: no stop in any set.)
                let word =
                    remaining >= 8
                    ? ByteWords.load(base + index) : ByteWords.load(base + index, count: remaining, filler: 0x80)
                let flags = stops(word)
                if flags != 0 { return index + ByteWords.first(flags) }
                index += 8
            }
            return buffer.count
        }
    }

    /// The bytes that end a run of ordinary bytes in a bare word: a separator, a quote, a
    /// backslash, a `$` or a NUL (each handled on its own by `lexWord`).
    @inline(__always)
    static func bareRunEnds(_ word: UInt64) -> UInt64 {
        ByteWords.equal(word, byte: 32) | ByteWords.equal(word, byte: 9) | ByteWords.equal(word, byte: 10)
            | ByteWords.equal(word, byte: 13) | ByteWords.equal(word, byte: 0)
            | ByteWords.equal(word, byte: UInt8(ascii: ";"))
            | ByteWords.equal(word, byte: UInt8(ascii: "|")) | ByteWords.equal(word, byte: UInt8(ascii: "'"))
            | ByteWords.equal(word, byte: UInt8(ascii: "\"")) | ByteWords.equal(word, byte: UInt8(ascii: "\\"))
            | ByteWords.equal(word, byte: UInt8(ascii: "$"))
    }

    private func byte(at position: Int) -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private func scalarLength(at position: Int) -> Int {
        let length: Int
        switch bytes[position] {
        case 0xF0...: length = 4
        case 0xE0...: length = 3
        case 0xC0...: length = 2
        default: length = 1
        }
        return min(length, bytes.count - position)
    }

    private mutating func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    private mutating func run() {
        while index < bytes.count {
            let current = bytes[index]
            switch current {
            case 32, 9, 13:
                index += 1
            case 10:
                emitSeparator(.newline, length: 1)
            case UInt8(ascii: ";"):
                emitSeparator(.semicolon, length: 1)
            case UInt8(ascii: "|"):
                lexPipe()
            case UInt8(ascii: "#"):
                index = runEnd(from: index + 1) { ByteWords.equal($0, byte: 10) }
            case UInt8(ascii: "\\") where byte(at: index + 1) == 10:
                index += 2
            case UInt8(ascii: "\\") where byte(at: index + 1) == 13 && byte(at: index + 2) == 10:
                index += 3
            case 0:
                reportNUL()
                pendingError = true
                index += 1
            default:
                lexWord()
            }
        }
        tokens.append(Token(kind: .end, range: SourceRange(offset: bytes.count, length: 0), hasError: pendingError))
        pendingError = false
    }

    private mutating func emitSeparator(_ kind: Token.Kind, length: Int) {
        tokens.append(Token(kind: kind, range: SourceRange(offset: index, length: length), hasError: pendingError))
        pendingError = false
        index += length
    }

    /// `| text…` up to the end of the line (not including the line break), or of the last line a
    /// trailing backslash carries it on to.
    private mutating func lexPipe() {
        let start = index
        var end = runEnd(from: index + 1) { ByteWords.equal($0, byte: 10) }
        var textEnd = end
        if textEnd > start + 1, bytes[textEnd - 1] == 13 { textEnd -= 1 }
        var hasError = false
        while continuesLine(from: start + 1, to: textEnd) {
            guard end < bytes.count else {
                report(
                    Diagnostic(
                        .error,
                        "backslash at the end of input",
                        rule: .trailingBackslash,
                        range: SourceRange(offset: textEnd - 1, length: 1),
                        notes: [Diagnostic.Note("a trailing '\\' continues the command on the next line")],
                        isIncompleteInput: true
                    )
                )
                hasError = true
                break
            }
            end = runEnd(from: end + 1) { ByteWords.equal($0, byte: 10) }
            textEnd = end
            if bytes[textEnd - 1] == 13 { textEnd -= 1 }
        }
        if bytes[(start + 1)..<textEnd].contains(0) {
            report(.error("unexpected NUL character", rule: .nulCharacter, at: SourceRange(from: start, to: textEnd)))
            hasError = true
        }
        var first = start + 1
        while first < textEnd, bytes[first] == 32 || bytes[first] == 9 { first += 1 }
        var last = textEnd
        while last > first, bytes[last - 1] == 32 || bytes[last - 1] == 9 { last -= 1 }
        let text = String(decoding: bytes[first..<last], as: UTF8.self)
        tokens.append(Token(kind: .pipe(text), range: SourceRange(from: start, to: textEnd), hasError: hasError))
        index = end
    }

    /// Whether `start..<end` ends in an odd number of backslashes (the last one escapes the line break).
    private func continuesLine(from start: Int, to end: Int) -> Bool {
        var position = end
        while position > start, bytes[position - 1] == UInt8(ascii: "\\") { position -= 1 }
        return (end - position) % 2 == 1
    }

    private mutating func reportNUL() {
        report(.error("unexpected NUL character", rule: .nulCharacter, at: SourceRange(offset: index, length: 1)))
    }

    // MARK: Words

    private mutating func lexWord() {
        let start = index
        var builder = WordBuilder()
        loop: while index < bytes.count {
            let current = bytes[index]
            switch current {
            case 32, 9, 10, 13, UInt8(ascii: ";"), UInt8(ascii: "|"):
                break loop
            case UInt8(ascii: "'"):
                lexSingleQuoted(&builder)
            case UInt8(ascii: "\""):
                lexDoubleQuoted(&builder)
            case UInt8(ascii: "\\"):
                guard let next = byte(at: index + 1) else {
                    report(
                        Diagnostic(
                            .error,
                            "backslash at the end of input",
                            rule: .trailingBackslash,
                            range: SourceRange(offset: index, length: 1),
                            notes: [Diagnostic.Note("a trailing '\\' continues the command on the next line")],
                            isIncompleteInput: true
                        )
                    )
                    builder.hasError = true
                    index += 1
                    break loop
                }
                if next == 10 {
                    index += 2
                } else if next == 13, byte(at: index + 2) == 10 {
                    index += 3
                } else if next == 0 {
                    index += 1
                    reportNUL()
                    builder.hasError = true
                    index += 1
                } else {
                    let length = scalarLength(at: index + 1)
                    builder.appendLiteral(
                        bytes[(index + 1)..<(index + 1 + length)],
                        from: index,
                        to: index + 1 + length,
                        quoted: false
                    )
                    index += 1 + length
                }
            case UInt8(ascii: "$"):
                lexDollar(&builder, quoted: false)
            case 0:
                reportNUL()
                builder.hasError = true
                index += 1
            default:
                // A run of ordinary bytes is one literal piece (appended at once, not byte by byte).
                let end = runEnd(from: index + 1, until: Self.bareRunEnds)
                builder.appendLiteral(bytes[index..<end], from: index, to: end, quoted: false)
                index = end
            }
        }
        builder.flush()
        let range = SourceRange(from: start, to: index)
        let word = Word(parts: builder.parts, range: range)
        tokens.append(Token(kind: .word(word), range: range, hasError: builder.hasError))
    }

    private mutating func lexSingleQuoted(_ builder: inout WordBuilder) {
        let open = index
        builder.beginQuoted(at: open)
        index += 1
        while index < bytes.count {
            let current = bytes[index]
            if current == UInt8(ascii: "'") {
                index += 1
                builder.endQuoted(at: index)
                return
            }
            if current == 0 {
                reportNUL()
                builder.hasError = true
                index += 1
            } else {
                let end = runEnd(from: index + 1) {
                    ByteWords.equal($0, byte: UInt8(ascii: "'")) | ByteWords.equal($0, byte: 0)
                }
                builder.appendLiteral(bytes[index..<end], from: index, to: end, quoted: true)
                index = end
            }
        }
        unterminated("single-quoted string", open: open, &builder)
    }

    private mutating func lexDoubleQuoted(_ builder: inout WordBuilder) {
        let open = index
        builder.beginQuoted(at: open)
        index += 1
        while index < bytes.count {
            let current = bytes[index]
            switch current {
            case UInt8(ascii: "\""):
                index += 1
                builder.endQuoted(at: index)
                return
            case UInt8(ascii: "\\"):
                let next = byte(at: index + 1)
                var escaped: UInt8?
                switch next {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "$"): escaped = next
                case UInt8(ascii: "n"): escaped = 10
                case UInt8(ascii: "t"): escaped = 9
                case 10:
                    index += 2
                    continue
                case 13 where byte(at: index + 2) == 10:
                    index += 3
                    continue
                default: escaped = nil
                }
                if let escaped {
                    builder.appendLiteral([escaped][...], from: index, to: index + 2, quoted: true)
                    index += 2
                } else {
                    builder.appendLiteral(bytes[index..<(index + 1)], from: index, to: index + 1, quoted: true)
                    index += 1
                }
            case UInt8(ascii: "$"):
                lexDollar(&builder, quoted: true)
            case 0:
                reportNUL()
                builder.hasError = true
                index += 1
            default:
                let end = runEnd(from: index + 1) {
                    ByteWords.equal($0, byte: UInt8(ascii: "\"")) | ByteWords.equal($0, byte: UInt8(ascii: "\\"))
                        | ByteWords.equal($0, byte: UInt8(ascii: "$")) | ByteWords.equal($0, byte: 0)
                }
                builder.appendLiteral(bytes[index..<end], from: index, to: end, quoted: true)
                index = end
            }
        }
        unterminated("double-quoted string", open: open, &builder)
    }

    private mutating func unterminated(_ what: String, open: Int, _ builder: inout WordBuilder) {
        report(
            Diagnostic(
                .error,
                "unterminated \(what)",
                rule: .unclosedQuote,
                range: SourceRange(offset: open, length: 1),
                notes: [Diagnostic.Note("the string starts here and runs to the end of the input")],
                isIncompleteInput: true
            )
        )
        builder.hasError = true
        builder.endQuoted(at: index)
    }

    private mutating func lexDollar(_ builder: inout WordBuilder, quoted: Bool) {
        let start = index
        guard let next = byte(at: index + 1) else {
            builder.appendLiteral(bytes[index..<(index + 1)], from: index, to: index + 1, quoted: quoted)
            index += 1
            return
        }
        if next == UInt8(ascii: "?") {
            index += 2
            builder.append(.status(range: SourceRange(from: start, to: index)))
        } else if next == UInt8(ascii: "#") || next == UInt8(ascii: "@") {
            index += 2
            let name = next == UInt8(ascii: "#") ? "#" : "@"
            builder.append(.variable(VariableReference(name: name, range: SourceRange(from: start, to: index))))
        } else if next == UInt8(ascii: "{") {
            lexBraced(&builder)
        } else if Lexer.isDigit(next) {
            index += 1
            while let byte = byte(at: index), Lexer.isDigit(byte) { index += 1 }
            let name = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
            builder.append(.variable(VariableReference(name: name, range: SourceRange(from: start, to: index))))
        } else if Lexer.isNameStart(next) {
            index += 1
            while let byte = byte(at: index), Lexer.isNameByte(byte) { index += 1 }
            let name = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
            builder.append(.variable(VariableReference(name: name, range: SourceRange(from: start, to: index))))
        } else {
            builder.appendLiteral(bytes[index..<(index + 1)], from: index, to: index + 1, quoted: quoted)
            index += 1
        }
    }

    private mutating func lexBraced(_ builder: inout WordBuilder) {
        let start = index
        let close = runEnd(from: index + 2) {
            ByteWords.equal($0, byte: UInt8(ascii: "}")) | ByteWords.equal($0, byte: 10)
        }
        guard close < bytes.count else {
            report(
                Diagnostic(
                    .error,
                    "unterminated '${'; expected '}'",
                    rule: .badPath,
                    range: SourceRange(offset: start, length: 2),
                    isIncompleteInput: true
                )
            )
            builder.hasError = true
            index = bytes.count
            return
        }
        guard bytes[close] == UInt8(ascii: "}") else {
            // The line ends first: said where the `${` starts, and the next line is read afresh.
            report(
                .error(
                    "unterminated '${'; expected '}' before the end of the line",
                    rule: .badPath,
                    at: SourceRange(offset: start, length: 2)
                )
            )
            builder.hasError = true
            index = close > start + 2 && bytes[close - 1] == 13 ? close - 1 : close
            return
        }
        index = close + 1
        let range = SourceRange(from: start, to: index)
        switch ValuePathParser.parse(bytes[(start + 2)..<close], baseOffset: start + 2) {
        case .success(.status):
            builder.append(.status(range: range))
        case .success(.variable(let name, let path, let nameRange, let componentRanges, let fallback)):
            builder.append(
                .variable(
                    VariableReference(
                        name: name,
                        path: path,
                        range: range,
                        nameRange: nameRange,
                        componentRanges: componentRanges,
                        fallback: fallback
                    )
                )
            )
        case .failure(let diagnostic):
            report(diagnostic)
            builder.hasError = true
        }
    }
}

/// Accumulates the parts of one word, merging adjacent literal text of the same quoting.
struct WordBuilder {
    var parts: [WordPart] = []
    var hasError = false
    /// The literal's text while it is one piece (most are: a run of the source's bytes), kept as
    /// a slice; a second piece copies both into `literal`.
    private var piece: ArraySlice<UInt8> = []
    private var literal: [UInt8] = []
    private var isCopied = false
    private var literalStart: Int?
    private var literalEnd = 0
    private var literalQuoted = false
    private var segmentHasContent = false

    mutating func appendLiteral(_ text: ArraySlice<UInt8>, from start: Int, to end: Int, quoted: Bool) {
        if literalStart != nil, literalQuoted != quoted { flush() }
        if literalStart == nil {
            literalStart = start
            literalQuoted = quoted
        }
        if isCopied {
            literal.append(contentsOf: text)
        } else if piece.isEmpty {
            piece = text
        } else {
            literal.append(contentsOf: piece)
            literal.append(contentsOf: text)
            isCopied = true
        }
        literalEnd = end
        segmentHasContent = true
    }

    mutating func append(_ part: WordPart) {
        flush()
        parts.append(part)
        segmentHasContent = true
    }

    mutating func beginQuoted(at offset: Int) {
        if literalStart != nil, !literalQuoted { flush() }
        if literalStart == nil {
            literalStart = offset
            literalQuoted = true
            literalEnd = offset + 1
        }
        segmentHasContent = false
    }

    mutating func endQuoted(at offset: Int) {
        if literalStart == nil {
            if segmentHasContent { return }
            literalStart = max(0, offset - 1)
            literalQuoted = true
        }
        literalEnd = offset
        if !segmentHasContent { flush(keepEmpty: true) }
    }

    mutating func flush(keepEmpty: Bool = false) {
        guard let start = literalStart else { return }
        let isEmpty = isCopied ? literal.isEmpty : piece.isEmpty
        if !isEmpty || keepEmpty {
            let text = isCopied ? String(decoding: literal, as: UTF8.self) : String(decoding: piece, as: UTF8.self)
            parts.append(
                .literal(text, range: SourceRange(from: start, to: max(start, literalEnd)), isQuoted: literalQuoted)
            )
        }
        if isCopied { literal.removeAll(keepingCapacity: true) }
        piece = []
        isCopied = false
        literalStart = nil
    }
}
