import BTSLanguage
import BooksTrackClient

extension CommandRegistry {
    /// Words in a `set` variable name that mark its value as a secret.
    package static let secretNameMarkers = ["token", "secret", "password", "passwd", "apikey", "api_key", "credential"]

    /// Whether `line` carries a secret and must never reach history or traces: it runs a
    /// sensitive command (`connect`) with an argument that may hold one (a URL with credentials,
    /// or any word bts cannot read plainly), gives a sensitive option, or assigns a variable whose
    /// name looks like a secret (`set token …`). Works on lines with syntax errors too (token
    /// level; then a sensitive command's line is dropped whatever its arguments).
    package func isSensitive(line: String) -> Bool {
        let (tokens, diagnostics) = Lexer.tokenize(SourceFile(name: "<history>", text: line))
        // What secret masking would change (`http://user:pw@host`, `?token=…`), or a line the
        // lexer cannot read whole.
        let mayHoldSecret = !diagnostics.isEmpty || SecretMasking.maskText(line) != line
        var statement: [Word] = []
        for token in tokens {
            if let word = token.word {
                statement.append(word)
                continue
            }
            if isSensitive(statement: statement, mayHoldSecret: mayHoldSecret) { return true }
            statement.removeAll()
        }
        return isSensitive(statement: statement, mayHoldSecret: mayHoldSecret)
    }

    /// `mayHoldSecret`: the line holds a secret pattern or cannot be lexed whole.
    private func isSensitive(statement: [Word], mayHoldSecret: Bool) -> Bool {
        guard let first = statement.first else { return false }
        guard let name = first.literalText, let spec = command(named: name) else {
            // An unknown or dynamic command: be careful only if it names a known sensitive one.
            return false
        }
        if spec.isSensitive, mayHoldSecret { return true }
        // A variable named like a secret (`set token …`): the first argument names a setting or variable.
        if spec.positionals.first?.valueType == .settingName, statement.count > 1,
            let variable = statement[1].literalText?.lowercased(),
            Self.secretNameMarkers.contains(where: { variable.contains($0) })
        {
            return true
        }
        let sensitiveOptions = (spec.options + spec.subcommands.flatMap(\.options)).filter(\.isSensitive)
        guard !sensitiveOptions.isEmpty else { return false }
        for word in statement.dropFirst() {
            guard case .option(let syntax)? = try? Parser.classify(word).get() else { continue }
            if Self.option(matching: syntax, in: sensitiveOptions) != nil { return true }
        }
        return false
    }
}
