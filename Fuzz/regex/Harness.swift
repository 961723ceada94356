// Fuzz target: the bounded regular expressions of `expect … matches` (BooksTrackSupport/
// BoundedRegex) and the terminal sanitiser (BTSTerminalText/TerminalText). Pattern = bytes before
// the first NUL, subject = the rest. Compiling or matching never crashes; sanitised text never
// holds a control character.
func fuzzOne(_ bytes: [UInt8]) {
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let pattern = String(decoding: bytes[..<split], as: UTF8.self)
    let subject = String(decoding: bytes[min(bytes.count, split + 1)...], as: UTF8.self)
    if let regex = try? BoundedRegex(pattern) {
        _ = try? regex.firstMatchExists(in: subject, stepBudget: 2_000_000, isCancelled: { false })
    }
    for text in [pattern, subject] {
        let flat = TerminalText.sanitize(text, lines: .flatten)
        invariant(
            !flat.unicodeScalars.contains { TerminalText.needsWork($0) },
            "a control character survived (flatten)"
        )
        let kept = TerminalText.sanitize(text)
        invariant(
            !kept.unicodeScalars.contains { TerminalText.needsWork($0) && $0 != "\n" && $0 != "\t" },
            "a control character survived (keep)"
        )
        let field = TerminalText.csvField(text)
        if text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            // Scalars, not Characters: a quote followed by a combining mark is one Character.
            invariant(
                field.unicodeScalars.first == "\"" && field.unicodeScalars.last == "\"",
                "a CSV field with a line break is not quoted"
            )
        }
    }
}
