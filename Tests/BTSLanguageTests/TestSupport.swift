import BTSLanguage

/// The words of a text as (source slice, literal-or-sourceForm) pairs, separators as ";" / "\n".
func lexed(_ text: String) -> [String] {
    let source = SourceFile(name: "t", text: text)
    return Lexer.tokenize(source).tokens.map { token in
        switch token.kind {
        case .word(let word): return word.sourceForm
        case .semicolon: return ";"
        case .pipe(let text): return "|" + text
        case .newline: return "\\n"
        case .end: return "<end>"
        }
    }
}

/// Parses and returns the script, failing the caller's expectations through the returned diagnostics.
func parsed(_ text: String) -> ParseResult {
    Parser.parse(text, name: "t.bts")
}

/// The single command of a text.
func onlyCommand(_ text: String) -> Command? {
    let result = parsed(text)
    guard result.diagnostics.isEmpty, result.script.commands.count == 1 else { return nil }
    return result.script.commands.first
}

extension SourceFile {
    func text(of range: SourceRange) -> String { slice(range) }
}
