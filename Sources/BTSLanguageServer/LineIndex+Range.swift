extension LineIndex {
    /// The text the index is of.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// An LSP range from two byte offsets.
    func range(_ start: Int, _ end: Int) -> LanguageServerResults.Range {
        let (startLine, startCharacter) = position(of: start)
        let (endLine, endCharacter) = position(of: end)
        return .init(
            start: .init(line: startLine, character: startCharacter),
            end: .init(line: endLine, character: endCharacter)
        )
    }

    /// The byte offset of an LSP position.
    func offset(_ position: TextChange.Position) -> Int {
        offset(line: position.line, character: position.character)
    }
}
