/// The outcome of parsing: the commands that parsed cleanly plus every diagnostic found.
public struct ParseResult: Sendable {
    public let source: SourceFile
    /// Commands without errors, in order. Commands with errors are left out.
    public let script: Script
    public let diagnostics: [Diagnostic]

    /// Whether any error was found (a script with errors should not run at all).
    public var hasErrors: Bool { diagnostics.containsErrors }

    /// Whether the input stopped in the middle of a quote, `${` or after a trailing backslash.
    public var isIncomplete: Bool { diagnostics.contains { $0.isIncompleteInput } }
}

/// Builds ``Script``s from text. The parser reports every error it finds: after an error it skips
/// to the next `;` or line break and carries on, so one run reports several problems.
public enum Parser {
    /// Parses a source file.
    public static func parse(_ source: SourceFile) -> ParseResult {
        let (tokens, lexical) = Lexer.tokenize(source)
        var diagnostics = lexical
        var commands: [Command] = []
        var words: [Word] = []
        var erroneous = false
        for token in tokens {
            if let word = token.word {
                words.append(word)
                erroneous = erroneous || token.hasError
                continue
            }
            erroneous = erroneous || token.hasError
            if !words.isEmpty, !erroneous, let command = buildCommand(words, &diagnostics) {
                commands.append(command)
            }
            words.removeAll()
            erroneous = false
        }
        diagnostics.sort { $0.range.offset < $1.range.offset }
        let script = Script(commands: commands, range: SourceRange(offset: 0, length: source.bytes.count))
        return ParseResult(source: source, script: script, diagnostics: diagnostics)
    }

    /// Parses text under a display name (`<stdin>`, `-c`, a file name).
    public static func parse(_ text: String, name: String = "<stdin>") -> ParseResult {
        parse(SourceFile(name: name, text: text))
    }

    /// Whether `text` is complete input for the REPL: false while a quote or `${` is open or the
    /// text ends in a line-continuing backslash (the REPL then shows a continuation prompt).
    public static func isComplete(_ text: String) -> Bool {
        let (_, diagnostics) = Lexer.tokenize(SourceFile(name: "<stdin>", text: text))
        return !diagnostics.contains { $0.isIncompleteInput }
    }

    // MARK: Commands

    private static func buildCommand(_ words: [Word], _ diagnostics: inout [Diagnostic]) -> Command? {
        guard let name = words.first else { return nil }
        var failed = false
        if let text = name.literalText {
            if text.isEmpty {
                diagnostics.append(.error("empty command name", at: name.range))
                failed = true
            } else if text.hasPrefix("-"), !name.isQuoted {
                diagnostics.append(.error(
                    "expected a command name, found option '\(text)'", at: name.range,
                    notes: [Diagnostic.Note("options come after the command, e.g. 'search dune \(text)'")]))
                failed = true
            }
        } else {
            diagnostics.append(.error(
                "a command name cannot contain variables or '$?'", at: name.range,
                notes: [Diagnostic.Note("quote the '$' or escape it as '\\$' if you meant it literally")]))
            failed = true
        }
        var arguments: [Argument] = []
        var optionsEnded = false
        for word in words.dropFirst() {
            if optionsEnded {
                arguments.append(Argument(word: word, kind: .positional))
                continue
            }
            switch classify(word) {
            case .success(let kind):
                if kind == .endOfOptions { optionsEnded = true }
                arguments.append(Argument(word: word, kind: kind))
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
                failed = true
            }
        }
        guard !failed else { return nil }
        let range = name.range.union(words.last?.range ?? name.range)
        return Command(name: name, arguments: arguments, range: range)
    }

    /// Classifies a word as positional, option or `--` (also used by completion on partial lines).
    public static func classify(_ word: Word) -> Result<Argument.Kind, Diagnostic> {
        guard case .literal(let text, let range, false)? = word.parts.first, text.hasPrefix("-") else {
            return .success(.positional)
        }
        let bytes = Array(text.utf8)
        if text == "--" {
            return .success(word.parts.count == 1 ? .endOfOptions : .positional)
        }
        let isLong = text.hasPrefix("--")
        let prefix = isLong ? 2 : 1
        if !isLong {
            guard bytes.count > 1, isLetter(bytes[1]) else { return .success(.positional) }
        }
        let body = bytes[prefix...]
        let equals = body.firstIndex(of: UInt8(ascii: "="))
        let nameBytes = body[..<(equals ?? body.endIndex)]
        let name = String(decoding: nameBytes, as: UTF8.self)
        let nameRange = SourceRange(offset: range.offset, length: min(range.length, prefix + nameBytes.count))
        guard let first = nameBytes.first, isLetter(first),
              nameBytes.allSatisfy({ isLetter($0) || Lexer.isDigit($0) || $0 == 45 || $0 == 95 })
        else {
            let message = nameBytes.isEmpty
                ? "missing option name in '\(word.sourceForm)'"
                : "invalid option name '\(String(decoding: bytes[..<(prefix + nameBytes.count)], as: UTF8.self))'"
            return .failure(.error(message, at: nameRange.length > 0 ? nameRange : word.range))
        }
        guard let equals else {
            if word.parts.count > 1 {
                return .failure(.error(
                    "malformed option '\(word.sourceForm)'", at: word.range,
                    notes: [Diagnostic.Note("write '\(isLong ? "--" : "-")\(name)=VALUE' or '\(isLong ? "--" : "-")\(name) VALUE'")]))
            }
            return .success(.option(OptionSyntax(name: name, isLong: isLong, nameRange: nameRange)))
        }
        let valueText = String(decoding: body[(equals + 1)...], as: UTF8.self)
        let valueStart = min(range.end, range.offset + prefix + nameBytes.count + 1)
        let valueRange = SourceRange(from: valueStart, to: range.end)
        var parts = Array(word.parts.dropFirst())
        if !valueText.isEmpty || parts.isEmpty {
            parts.insert(.literal(valueText, range: valueRange, isQuoted: false), at: 0)
        }
        let value = Word(parts: parts, range: SourceRange(from: valueStart, to: word.range.end))
        return .success(.option(OptionSyntax(name: name, isLong: isLong, nameRange: nameRange, value: value)))
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }
}
