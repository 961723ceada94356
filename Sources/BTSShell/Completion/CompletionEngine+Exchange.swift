import BTSLanguage

extension CompletionEngine {
    /// `${_http.st` → `${_http.status}`, `${_http.headers.co` → `${_http.headers.content-type}`: the
    /// fields of the last HTTP exchange (``VariableScope.Exchange/Field``) and the header names of the
    /// session's last one; nil when the cursor is not in such a path.
    func exchangeAnswer(bytes: [UInt8], cursor: Int, context: CompletionContext) -> CompletionAnswer? {
        var start = cursor
        while start > 0, Self.isPathByte(bytes[start - 1]) { start -= 1 }
        guard start >= 2, bytes[start - 2] == UInt8(ascii: "$"), bytes[start - 1] == UInt8(ascii: "{") else {
            return nil
        }
        let dollar = start - 2
        if dollar > 0, bytes[dollar - 1] == UInt8(ascii: "\\") { return nil }
        let base = "${\(VariableScope.Exchange.name)."
        let typed = String(decoding: bytes[dollar..<cursor], as: UTF8.self)
        guard typed.hasPrefix(base) else { return nil }
        let path = typed.dropFirst(base.count)
        let headers = VariableScope.Exchange.Field.headers.rawValue + "."
        var candidates: [String] = []
        var display: [String] = []
        if path.hasPrefix(headers) {
            let partial = path.dropFirst(headers.count)
            for name in context.exchangeHeaders where name.hasPrefix(partial) {
                candidates.append(base + headers + name + "}")
                display.append(name)
            }
        } else if !path.contains(".") {
            for field in VariableScope.Exchange.Field.allCases where field.rawValue.hasPrefix(path) {
                candidates.append(field == .headers ? base + headers : base + field.rawValue + "}")
                display.append(field.rawValue)
            }
        }
        let before = String(decoding: bytes[..<dollar], as: UTF8.self)
        let insideQuotes = !Parser.isLexicallyComplete(before)
        let open = candidates.count == 1 && candidates[0].hasSuffix(".")
        return CompletionAnswer(
            range: dollar..<cursor,
            candidates: candidates,
            display: display,
            appendSpace: !insideQuotes && !open
        )
    }

    /// The keys among `names` that a `${…}` path can spell (letters, digits, `_`, and `-` after the
    /// first), once each, sorted.
    static func pathKeys(_ names: [String]) -> [String] {
        Set(
            names.filter { name in
                guard let first = name.utf8.first, first != UInt8(ascii: "-"), name.utf8.count <= 100 else {
                    return false
                }
                return name.utf8.allSatisfy { isNameByte($0) || $0 == UInt8(ascii: "-") }
            }
        ).sorted()
    }

    /// A byte of a `${…}` path as TAB reads it back from the cursor.
    static func isPathByte(_ byte: UInt8) -> Bool {
        isNameByte(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
