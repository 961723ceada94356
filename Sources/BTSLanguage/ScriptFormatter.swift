/// Lays a script out canonically (`bts fmt`). A script with syntax errors is not formatted: the
/// result is its errors.
///
/// The layout, worked out from the lexer's tokens (the words themselves are never rewritten):
/// - A line is indented 2 spaces per open block at the start of its first command. Blocks open
///   with a command named `for`, `if` or `while` and close with `end`; a line whose first command
///   is `end`, `elif` or `else` sits one level out. Only an unquoted keyword is a keyword, and
///   every command of a line counts (`if $x == 1; echo one; end` is one line).
/// - Words are copied from the source byte for byte (quotes, `$…`, `--name=value` as written) and
///   separated by one space; `;` is written `; `, and one at the end of a line is dropped; a pipe is
///   written ` | ` and its pipeline text without the blanks around it.
/// - A comment keeps its place: on a line of its own, indented like a command there, or after a
///   command, one space after it (so a `#!` line stays first). Its trailing blanks are dropped.
/// - A line continuation (`\` before a line break) between the words of a command is kept, written
///   ` \` and the continued line indented one level deeper than the command's line; one anywhere
///   else joins nothing and is dropped.
/// - Runs of blank lines become one; there are none at the start or the end. Lines end in `\n`
///   (not `\r\n`) and without trailing blanks, and the text ends with one `\n` (an empty script
///   formats to the empty string). Text inside quotes, line breaks and blanks included, is kept.
///
/// Formatting a formatted script changes nothing, and the formatted script parses to the same
/// statements as the original.
package enum ScriptFormatter {
    /// Why a script was not formatted: its syntax errors.
    package struct Failure: Error, Sendable {
        /// The script that was not formatted (to render the diagnostics with).
        package let source: SourceFile
        /// The errors the parser found, in source order (at least one).
        package let diagnostics: [Diagnostic]
    }

    /// The script laid out canonically, or its syntax errors.
    package static func format(_ source: SourceFile) -> Result<String, Failure> {
        let errors = Parser.parse(source).diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else { return .failure(Failure(source: source, diagnostics: errors)) }
        var layout = Layout(bytes: source.bytes)
        for token in Lexer.tokenize(source).tokens {
            layout.add(token)
        }
        return .success(String(decoding: layout.output, as: UTF8.self))
    }

    /// The text laid out canonically, or its syntax errors; `name` is the name diagnostics show.
    package static func format(_ text: String, name: String = "<stdin>") -> Result<String, Failure> {
        format(SourceFile(name: name, text: text))
    }
}

/// The text between two tokens, which the lexer skips: blanks, line continuations and at most one
/// comment (which runs to the line break, so it is always last).
private struct Gap {
    /// Whether the gap holds a line continuation.
    var continues = false
    /// The comment's bytes, trailing blanks left out.
    var comment: Range<Int>?

    init(_ bytes: [UInt8], from start: Int, to end: Int) {
        var index = start
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                continues = true
            case UInt8(ascii: "#"):
                var last = end
                while last > index, bytes[last - 1] == 32 || bytes[last - 1] == 9 || bytes[last - 1] == 13 { last -= 1 }
                comment = index..<last
                return
            default:
                break
            }
            index += 1
        }
    }
}

/// Writes the tokens of a script that parses, one at a time, in the canonical layout.
private struct Layout {
    let bytes: [UInt8]
    private(set) var output: [UInt8] = []
    /// Where the gap before the next token starts.
    private var gapStart = 0
    /// How many blocks are open.
    private var depth = 0
    /// The indentation level of the line being written (a continued line goes one deeper).
    private var lineDepth = 0
    /// Whether anything has been written on the current line.
    private var lineHasContent = false
    /// Whether the next word is a command's name (at the start of a line or after `;`).
    private var atCommandStart = true
    /// Whether a blank line is owed before the next line written.
    private var owesBlankLine = false

    init(bytes: [UInt8]) {
        self.bytes = bytes
        output.reserveCapacity(bytes.count + bytes.count / 8)
    }

    mutating func add(_ token: Token) {
        let start = min(max(token.range.offset, gapStart), bytes.count)
        let gap = Gap(bytes, from: gapStart, to: start)
        gapStart = min(max(token.range.end, start), bytes.count)
        switch token.kind {
        case .word(let word):
            let end = Self.endWithoutContinuations(bytes, start..<gapStart)
            // The continuations at the end of the word belong to the next gap.
            gapStart = end
            if atCommandStart {
                startCommand(named: word)
            } else if gap.continues {
                continueLine()
            } else {
                output.append(32)
            }
            output.append(contentsOf: bytes[start..<end])
        case .pipe:
            if !lineHasContent { beginLine(at: depth) }
            if gap.continues, !atCommandStart {
                continueLine()
                output.append(UInt8(ascii: "|"))
            } else {
                output.append(contentsOf: " |".utf8)
            }
            // The text as the lexer reads it (the token ends before a `\r` at the line's end).
            var first = min(start + 1, gapStart)
            while first < gapStart, bytes[first] == 32 || bytes[first] == 9 { first += 1 }
            var last = gapStart
            while last > first, bytes[last - 1] == 32 || bytes[last - 1] == 9 { last -= 1 }
            if first < last {
                output.append(32)
                output.append(contentsOf: bytes[first..<last])
                // One `\r` before the line break would be taken off the text: a last one is doubled.
                if bytes[last - 1] == 13 { output.append(13) }
            }
            atCommandStart = false
        case .semicolon:
            atCommandStart = true
        case .newline, .end:
            if let comment = gap.comment {
                if lineHasContent { output.append(32) } else { beginLine(at: depth) }
                output.append(contentsOf: bytes[comment])
            }
            if lineHasContent {
                // A word ending in an escaped `\r` would make a line continuation of the line break.
                if output.count >= 2, output[output.count - 1] == 13, output[output.count - 2] == UInt8(ascii: "\\") {
                    output.append(32)
                }
                output.append(10)
                lineHasContent = false
            } else if !output.isEmpty {
                owesBlankLine = true
            }
            atCommandStart = true
        }
    }

    /// Starts a command: on a new line indented for its depth, or after `; `. A keyword opens,
    /// divides or closes a block.
    private mutating func startCommand(named name: Word) {
        let keyword = name.isQuoted ? nil : name.literalText
        let divides = keyword.map { Parser.branchKeywords.contains($0) } ?? false
        if keyword == Parser.blockEnd { depth = max(0, depth - 1) }
        if lineHasContent {
            output.append(contentsOf: "; ".utf8)
        } else {
            beginLine(at: divides ? max(0, depth - 1) : depth)
        }
        if let keyword, Parser.blockOpeners.contains(keyword) { depth += 1 }
        atCommandStart = false
    }

    /// Starts a line indented `level` levels, after the blank line owed if any.
    private mutating func beginLine(at level: Int) {
        if owesBlankLine {
            output.append(10)
            owesBlankLine = false
        }
        output.append(contentsOf: repeatElement(32, count: 2 * level))
        lineDepth = level
        lineHasContent = true
    }

    /// Ends the line with ` \` and indents the continued line one level deeper.
    private mutating func continueLine() {
        output.append(contentsOf: " \\\n".utf8)
        output.append(contentsOf: repeatElement(32, count: 2 * (lineDepth + 1)))
    }

    /// The end of a word's bytes without the line continuations it ends with (`a\` and a line
    /// break, then a blank: the word is `a`). A word never starts with one, and one that ends in
    /// a line break ends in a continuation (in quotes it would end in the closing quote).
    static func endWithoutContinuations(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        var end = range.upperBound
        while end > range.lowerBound, bytes[end - 1] == 10 {
            var backslash = end - 2
            if backslash >= range.lowerBound, bytes[backslash] == 13 { backslash -= 1 }
            guard backslash > range.lowerBound, bytes[backslash] == UInt8(ascii: "\\") else { break }
            end = backslash
        }
        return end
    }
}
