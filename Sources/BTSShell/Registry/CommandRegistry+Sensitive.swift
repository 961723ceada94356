import BTSLanguage

extension CommandRegistry {
    /// Words in a `set` variable name that mark its value as a secret.
    public static let secretNameMarkers = ["token", "secret", "password", "passwd", "apikey", "api_key", "credential"]

    /// Whether `line` carries a secret and must never reach history or traces: it runs a
    /// sensitive command (`connect`), gives a sensitive option, or assigns a variable whose name
    /// looks like a secret (`set token …`). Works on lines with syntax errors too (token level).
    public func isSensitive(line: String) -> Bool {
        let (tokens, _) = Lexer.tokenize(SourceFile(name: "<history>", text: line))
        var statement: [Word] = []
        for token in tokens {
            if let word = token.word {
                statement.append(word)
                continue
            }
            if isSensitive(statement: statement) { return true }
            statement.removeAll()
        }
        return false
    }

    private func isSensitive(statement: [Word]) -> Bool {
        guard let first = statement.first else { return false }
        guard let name = first.literalText, let spec = command(named: name) else {
            // An unknown or dynamic command: be careful only if it names a known sensitive one.
            return false
        }
        if spec.isSensitive { return true }
        if spec.name == "set", statement.count > 1, let variable = statement[1].literalText?.lowercased(),
           Self.secretNameMarkers.contains(where: { variable.contains($0) }) {
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
