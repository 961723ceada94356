/// The outcome of parsing: the commands that parsed cleanly plus every diagnostic found.
package struct ParseResult: Sendable {
    package let source: SourceFile
    /// Commands without errors, in order. Commands with errors are left out.
    package let script: Script
    package let diagnostics: [Diagnostic]

    /// Whether any error was found (a script with errors should not run at all).
    package var hasErrors: Bool { diagnostics.containsErrors }

    /// Whether the input stopped in the middle of a quote, `${` or after a trailing backslash.
    package var isIncomplete: Bool { diagnostics.contains { $0.isIncompleteInput } }
}

/// Builds ``Script``s from text. The parser reports every error it finds: after an error it skips
/// to the next `;` or line break and carries on, so one run reports several problems.
///
/// Blocks are made of keyword commands (an unquoted keyword as the command name):
/// `for NAME in WORD…` / `for NAME in lines FILE` / `for NAME in words TEXT…` … `end`,
/// `if COND` … `elif COND` … `else` … `end`, and `break` / `continue` inside a loop.
/// A command may end in `> FILE`, `>> FILE` or `| pipeline` (the rest of the line, for `/bin/sh`).
package enum Parser {
    /// The words that open a block (closed by `end`).
    package static let blockOpeners: Set<String> = ["for", "if", "while"]
    /// The words that divide an `if` block into branches.
    package static let branchKeywords: Set<String> = ["elif", "else"]
    /// The word that closes a block.
    package static let blockEnd = "end"

    /// The words that open, divide and close blocks, and leave or restart a loop.
    package static let keywords = ["for", "while", "if", "elif", "else", "end", "break", "continue"]

    /// The name under which a word reads the environment (`${env.HOME}`): not a variable's name.
    package static let environmentName = "env"

    /// The name under which a word reads the last HTTP exchange (`${_http.status}`): not a variable's name.
    package static let exchangeName = "_http"

    /// Whether `name` can name a variable (`set NAME`, `for NAME in`): an identifier other than
    /// `_` (the last result), `env` (the environment) and `_http` (the last HTTP exchange).
    package static func isVariableName(_ name: String) -> Bool {
        guard name != "_", name != environmentName, name != exchangeName, let first = name.utf8.first,
            Lexer.isNameStart(first)
        else { return false }
        return name.utf8.allSatisfy(Lexer.isNameByte)
    }

    /// Commands whose words are a condition: `>`, `>=`, `<` there are operators, not redirections.
    static let conditionCommands: Set<String> = ["expect", "if", "elif", "while"]

    /// Parses a source file.
    package static func parse(_ source: SourceFile) -> ParseResult {
        let (tokens, lexical) = Lexer.tokenize(source)
        var diagnostics = lexical
        var builder = BlockBuilder()
        var words: [Word] = []
        var pipe: (text: String, range: SourceRange)?
        var erroneous = false
        for token in tokens {
            if let word = token.word {
                words.append(word)
                erroneous = erroneous || token.hasError
                continue
            }
            erroneous = erroneous || token.hasError
            if let text = token.pipeline {
                if words.isEmpty {
                    diagnostics.append(
                        .error(
                            "'|' needs a command before it",
                            rule: .badPipe,
                            at: SourceRange(offset: token.range.offset, length: 1),
                            notes: [Diagnostic.Note("e.g. 'search dune | sort'")]
                        )
                    )
                    erroneous = true
                } else if text.isEmpty {
                    diagnostics.append(
                        .error(
                            "missing command after '|'",
                            rule: .badPipe,
                            at: SourceRange(offset: token.range.offset, length: 1),
                            notes: [Diagnostic.Note("e.g. 'search dune | sort'")]
                        )
                    )
                    erroneous = true
                }
                pipe = (text, token.range)
                continue
            }
            if !words.isEmpty {
                builder.add(words, pipe: pipe, erroneous: erroneous, &diagnostics)
            }
            words.removeAll(keepingCapacity: true)
            pipe = nil
            erroneous = false
        }
        builder.finish(&diagnostics)
        diagnostics.sort { $0.range.offset < $1.range.offset }
        let script = Script(statements: builder.statements, range: SourceRange(offset: 0, length: source.bytes.count))
        return ParseResult(source: source, script: script, diagnostics: diagnostics)
    }

    /// Parses text under a display name (`<stdin>`, `-c`, a file name).
    package static func parse(_ text: String, name: String = "<stdin>") -> ParseResult {
        parse(SourceFile(name: name, text: text))
    }

    /// Whether `text` is complete input for the REPL (or for a reader fed line by line): false
    /// while a quote or `${` is open, the text ends in a line-continuing backslash, or a block
    /// (`for`, `if`) is still open. The REPL then shows a continuation prompt; a script reader
    /// keeps appending lines until this is true (or the input ends).
    package static func isComplete(_ text: String) -> Bool {
        !parse(text).isIncomplete
    }

    /// Whether `text` is lexically complete: no open quote, `${` or trailing backslash (blocks
    /// are not considered).
    package static func isLexicallyComplete(_ text: String) -> Bool {
        let (_, diagnostics) = Lexer.tokenize(SourceFile(name: "<stdin>", text: text))
        return !diagnostics.contains { $0.isIncompleteInput }
    }

    // MARK: Commands

    static func buildCommand(
        _ allWords: [Word],
        pipe: (text: String, range: SourceRange)?,
        _ diagnostics: inout [Diagnostic]
    ) -> Command? {
        guard let name = allWords.first else { return nil }
        var failed = false
        var words = allWords
        var redirection: Redirection?
        if !conditionCommands.contains(name.literalText ?? "") {
            switch extractRedirection(&words) {
            case .success(let found): redirection = found
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
                failed = true
            }
        }
        if let pipe {
            if let redirection {
                diagnostics.append(
                    .error(
                        "a command cannot both write a file and pipe its output",
                        rule: .badRedirection,
                        at: pipe.range,
                        notes: [
                            Diagnostic.Note("the redirection is here", range: redirection.range),
                            Diagnostic.Note("write 'CMD | pipeline > FILE' inside the pipeline instead"),
                        ]
                    )
                )
                failed = true
            }
            redirection = Redirection(kind: .pipe(pipe.text), range: pipe.range)
        }
        if let text = name.literalText {
            if text.isEmpty {
                diagnostics.append(.error("empty command name", rule: .badCommandName, at: name.range))
                failed = true
            } else if text.hasPrefix("-"), !name.isQuoted {
                diagnostics.append(
                    .error(
                        "expected a command name, found option '\(text)'",
                        rule: .badCommandName,
                        at: name.range,
                        notes: [Diagnostic.Note("options come after the command, e.g. 'search dune \(text)'")]
                    )
                )
                failed = true
            }
        } else {
            diagnostics.append(
                .error(
                    "a command name cannot contain variables or '$?'",
                    rule: .badCommandName,
                    at: name.range,
                    notes: [Diagnostic.Note("quote the '$' or escape it as '\\$' if you meant it literally")]
                )
            )
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
        return Command(name: name, arguments: arguments, range: range, redirection: redirection)
    }

    /// Takes `> FILE`, `>FILE`, `>> FILE` or `>>FILE` (unquoted `>`) off the end of `words`; it
    /// must come last.
    static func extractRedirection(_ words: inout [Word]) -> Result<Redirection?, Diagnostic> {
        guard let position = words.indices.dropFirst().first(where: { isRedirection(words[$0]) }),
            case .literal(let text, let range, false) = words[position].parts[0]
        else { return .success(nil) }
        let word = words[position]
        let append = text.hasPrefix(">>")
        let operatorLength = append ? 2 : 1
        var target: Word
        var consumed = 1
        if text.utf8.count == operatorLength, word.parts.count == 1 {
            guard position + 1 < words.count else {
                return .failure(
                    .error(
                        "missing file name after '\(append ? ">>" : ">")'",
                        rule: .badRedirection,
                        at: word.range,
                        notes: [Diagnostic.Note("e.g. 'search dune > dune.json'")]
                    )
                )
            }
            target = words[position + 1]
            consumed = 2
        } else {
            var parts = Array(word.parts.dropFirst())
            let rest = String(text.dropFirst(operatorLength))
            let restRange = SourceRange(from: range.offset + operatorLength, to: range.end)
            if !rest.isEmpty { parts.insert(.literal(rest, range: restRange, isQuoted: false), at: 0) }
            target = Word(parts: parts, range: SourceRange(from: restRange.offset, to: word.range.end))
        }
        if target.literalText == "" || target.parts.isEmpty {
            return .failure(
                .error("missing file name after '\(append ? ">>" : ">")'", rule: .badRedirection, at: word.range)
            )
        }
        if let stray = words.dropFirst(position + consumed).first {
            return .failure(
                .error(
                    "unexpected '\(stray.sourceForm)' after the redirection; '> FILE' comes last",
                    rule: .badRedirection,
                    at: stray.range,
                    notes: [Diagnostic.Note("quote '>' to use it as a word: '>'")]
                )
            )
        }
        words.removeSubrange(position...)
        let whole = word.range.union(target.range)
        return .success(Redirection(kind: append ? .append(target) : .write(target), range: whole))
    }

    /// An unquoted word starting with `>`.
    static func isRedirection(_ word: Word) -> Bool {
        guard case .literal(let text, _, false)? = word.parts.first else { return false }
        return text.hasPrefix(">")
    }

    /// Classifies a word as positional, option or `--` (also used by completion on partial lines).
    package static func classify(_ word: Word) -> Result<Argument.Kind, Diagnostic> {
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
            let message =
                nameBytes.isEmpty
                ? "missing option name in '\(word.sourceForm)'"
                : "invalid option name '\(String(decoding: bytes[..<(prefix + nameBytes.count)], as: UTF8.self))'"
            return .failure(.error(message, rule: .malformedOption, at: nameRange.length > 0 ? nameRange : word.range))
        }
        guard let equals else {
            if word.parts.count > 1 {
                return .failure(
                    .error(
                        "malformed option '\(word.sourceForm)'",
                        rule: .malformedOption,
                        at: word.range,
                        notes: [
                            Diagnostic.Note(
                                "write '\(isLong ? "--" : "-")\(name)=VALUE' or '\(isLong ? "--" : "-")\(name) VALUE'"
                            )
                        ]
                    )
                )
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
