/// A path into structured data, as in `${_.results[0].isbn}`: `.key("results"), .index(0), .key("isbn")`.
package struct ValuePath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    package enum Component: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element; negative indexes count from the end (`[-1]` is the last).
        case index(Int)
        /// `[*]`: every element of an array (the rest of the path is read from each): a list.
        case all
    }

    package var components: [Component]

    package init(_ components: [Component] = []) {
        self.components = components
    }

    package var isEmpty: Bool { components.isEmpty }

    /// The path in source form, e.g. `.results[0].isbn`.
    package var description: String {
        components.map { component in
            switch component {
            case .key(let key): return ".\(key)"
            case .index(let index): return "[\(index)]"
            case .all: return "[*]"
            }
        }.joined()
    }

    /// Whether the path selects many values (`[*]` somewhere).
    package var isList: Bool { components.contains(.all) }
}

/// A reference to a variable inside a word: `$x`, `${x}`, `$1`, `$_`, `${_.a.b[0]}`.
package struct VariableReference: Sendable, Hashable {
    /// The variable name: an identifier, `_` (last result) or digits (script arguments).
    package var name: String
    /// The path into the variable's value (empty for a plain reference).
    package var path: ValuePath
    /// The whole reference including `$` and braces.
    package var range: SourceRange
    /// The range of the name alone.
    package var nameRange: SourceRange
    /// One range per path component (`.key` including the dot, `[0]` including the brackets),
    /// so an interpreter can point at the exact step that failed.
    package var componentRanges: [SourceRange]
    /// `${1:-5}`: the text used when the variable is unset, missing, null or empty.
    package var fallback: String?

    package init(
        name: String,
        path: ValuePath = ValuePath(),
        range: SourceRange,
        nameRange: SourceRange? = nil,
        componentRanges: [SourceRange] = [],
        fallback: String? = nil
    ) {
        self.name = name
        self.path = path
        self.range = range
        self.nameRange = nameRange ?? SourceRange(offset: range.offset + 1, length: max(0, range.length - 1))
        self.componentRanges = componentRanges
        self.fallback = fallback
    }

    /// Whether the reference expands to several words: `$@` (all script arguments) or a `[*]` path.
    package var isList: Bool { name == "@" || path.isList }

    /// The range of the reference up to and including path component `index` (for messages such
    /// as "no key 'isbnn' in ${_.results[0].isbnn}").
    package func range(throughComponent index: Int) -> SourceRange {
        guard componentRanges.indices.contains(index) else { return range }
        return SourceRange(from: range.offset, to: componentRanges[index].end)
    }

    /// Whether the name is `1`, `2`, … (a script argument).
    package var isPositional: Bool { !name.isEmpty && name.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
}

/// Parses the inside of `${ … }`: `name ( .key | [index] | [*] )* [ :-DEFAULT ]`, whitespace allowed
/// between parts; `name` may also be `#` (the number of arguments) or `@` (all of them).
package enum ValuePathParser {
    /// The result of parsing: `.status` for `${?}`, else a variable reference.
    package enum Parsed: Sendable, Hashable {
        case status
        /// A variable with its path; ranges are source offsets (from `baseOffset`).
        case variable(
            name: String,
            path: ValuePath,
            nameRange: SourceRange,
            componentRanges: [SourceRange],
            fallback: String?
        )
    }

    /// Parses `bytes` (the text between the braces) that starts at `baseOffset` in the source.
    /// Errors point at the offending character.
    package static func parse(_ bytes: ArraySlice<UInt8>, baseOffset: Int) -> Result<Parsed, Diagnostic> {
        var cursor = Cursor(bytes: Array(bytes), base: baseOffset)
        cursor.skipSpace()
        if cursor.peek == UInt8(ascii: "?") {
            cursor.index += 1
            cursor.skipSpace()
            if cursor.atEnd { return .success(.status) }
            return .failure(cursor.unexpected("after '?'"))
        }
        let nameStart = cursor.offset
        var special: String?
        if let byte = cursor.peek, byte == UInt8(ascii: "#") || byte == UInt8(ascii: "@") {
            special = String(UnicodeScalar(byte))
            cursor.index += 1
        }
        guard let name = special ?? cursor.name(allowDigitStart: true) else {
            if cursor.atEnd {
                return .failure(
                    .error("empty variable reference; expected a name inside '${}'", rule: .badPath, at: cursor.here)
                )
            }
            return .failure(cursor.unexpected("where a variable name was expected"))
        }
        let nameRange = SourceRange(from: nameStart, to: cursor.offset)
        var components: [ValuePath.Component] = []
        var ranges: [SourceRange] = []
        var fallback: String?
        while true {
            cursor.skipSpace()
            guard let byte = cursor.peek else { break }
            let componentStart = cursor.offset
            if byte == UInt8(ascii: ":") {
                guard cursor.bytes.count > cursor.index + 1, cursor.bytes[cursor.index + 1] == UInt8(ascii: "-") else {
                    return .failure(
                        .error("expected ':-' before a default value, e.g. ${1:-5}", rule: .badPath, at: cursor.here)
                    )
                }
                fallback = String(decoding: cursor.bytes[(cursor.index + 2)...], as: UTF8.self)
                cursor.index = cursor.bytes.count
                break
            }
            if special != nil {
                return .failure(cursor.unexpected("after '$\(name)' (it takes no path)"))
            }
            if byte == UInt8(ascii: ".") {
                cursor.index += 1
                cursor.skipSpace()
                guard let key = cursor.name(allowDigitStart: true) else {
                    return .failure(
                        .error("expected a key after '.' in variable path", rule: .badPath, at: cursor.here)
                    )
                }
                components.append(.key(key))
                ranges.append(SourceRange(from: componentStart, to: cursor.offset))
            } else if byte == UInt8(ascii: "[") {
                let open = cursor.here
                cursor.index += 1
                cursor.skipSpace()
                if cursor.peek == UInt8(ascii: "*") {
                    cursor.index += 1
                    cursor.skipSpace()
                    guard cursor.peek == UInt8(ascii: "]") else {
                        return .failure(
                            .error(
                                "expected ']' after '[*'",
                                rule: .badPath,
                                at: cursor.here,
                                notes: [Diagnostic.Note("to match this '['", range: open)]
                            )
                        )
                    }
                    cursor.index += 1
                    components.append(.all)
                    ranges.append(SourceRange(from: componentStart, to: cursor.offset))
                    continue
                }
                guard let index = cursor.integer() else {
                    return .failure(
                        .error(
                            "expected an integer index or '*' after '['",
                            rule: .badPath,
                            at: cursor.here,
                            notes: [Diagnostic.Note("'[' is here", range: open)]
                        )
                    )
                }
                cursor.skipSpace()
                guard cursor.peek == UInt8(ascii: "]") else {
                    return .failure(
                        .error(
                            "expected ']' to close the index",
                            rule: .badPath,
                            at: cursor.here,
                            notes: [Diagnostic.Note("to match this '['", range: open)]
                        )
                    )
                }
                cursor.index += 1
                components.append(.index(index))
                ranges.append(SourceRange(from: componentStart, to: cursor.offset))
            } else {
                return .failure(cursor.unexpected("in variable path"))
            }
        }
        if fallback != nil, ValuePath(components).isList || name == "@" {
            return .failure(
                .error(
                    "a list ('[*]' or '$@') cannot have a default value",
                    rule: .badPath,
                    at: SourceRange(from: nameStart, to: cursor.offset)
                )
            )
        }
        return .success(
            .variable(
                name: name,
                path: ValuePath(components),
                nameRange: nameRange,
                componentRanges: ranges,
                fallback: fallback
            )
        )
    }

    /// Parses a path written as text, e.g. `_.results[0].isbn` (for commands such as `expect`).
    package static func parse(_ text: String) -> Result<Parsed, Diagnostic> {
        let bytes = Array(text.utf8)
        return parse(bytes[...], baseOffset: 0)
    }

    private struct Cursor {
        let bytes: [UInt8]
        let base: Int
        var index = 0

        var atEnd: Bool { index >= bytes.count }
        var offset: Int { base + index }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
        var here: SourceRange {
            SourceRange(offset: base + index, length: atEnd ? 0 : scalarLength(at: index))
        }

        mutating func skipSpace() {
            while let byte = peek, byte == 32 || byte == 9 || byte == 10 || byte == 13 { index += 1 }
        }

        mutating func name(allowDigitStart: Bool) -> String? {
            let start = index
            while let byte = peek, Lexer.isNameByte(byte) || byte == UInt8(ascii: "-") && index > start {
                if index == start, !allowDigitStart, Lexer.isDigit(byte) { break }
                index += 1
            }
            guard index > start else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func integer() -> Int? {
            let start = index
            if peek == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while let byte = peek, Lexer.isDigit(byte) { index += 1 }
            guard index > digits, let value = Int(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                index = start
                return nil
            }
            return value
        }

        func scalarLength(at position: Int) -> Int {
            let lead = bytes[position]
            let length: Int
            switch lead {
            case 0xF0...: length = 4
            case 0xE0...: length = 3
            case 0xC0...: length = 2
            default: length = 1
            }
            return min(length, bytes.count - position)
        }

        func unexpected(_ context: String) -> Diagnostic {
            let range = here
            let character = String(decoding: bytes[index..<index + range.length], as: UTF8.self)
            return .error("unexpected '\(character)' \(context)", rule: .badPath, at: range)
        }
    }
}
