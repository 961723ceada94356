import BTSTerminalText

/// Renders diagnostics in the clang style:
///
/// ```
/// script.bts:3:19: error: unknown option '--limt' for 'search' (did you mean '--limit'?)
///   3 | search title dune --limt 5
///     |                   ^~~~~~
/// ```
///
/// The caret sits at the start column and `~` covers the rest of the range on that line.
/// Tabs are expanded to 8-column stops and control characters are shown as Control Pictures,
/// so the caret line always lines up with the printed source line.
public struct DiagnosticRenderer: Sendable {
    /// Emit ANSI colour (bold location/message, red `error:`, green caret line) like clang.
    public var colored: Bool
    /// The terminal's width: a message longer than its line is wrapped at spaces, later lines 2
    /// columns in (nil: one line, as scripts and logs want it).
    public var width: Int?
    /// Start each message with `file:line:col:` and number the snippet's line (false for a line
    /// typed at the prompt: it has no file, and it is the line right above).
    public var showsPlace: Bool

    public init(colored: Bool = false, width: Int? = nil, showsPlace: Bool = true) {
        self.colored = colored
        self.width = width
        self.showsPlace = showsPlace
    }

    /// `name: ` before a note or a summary line (nothing without places).
    private func sourcePrefix(_ source: SourceFile) -> String {
        showsPlace ? paint("\(DisplayWidth.printable(text: source.name)): ", .bold) : ""
    }

    /// At most this many diagnostics are shown; one line says how many more there are (clang's
    /// `-ferror-limit`, default 20): a junk script printed thousands.
    public static let limit = 20
    /// A message is cut after this many characters (it may quote a word of any length).
    static let messageLimit = 500
    /// A source line longer than this many bytes is shown as a window around the caret.
    static let snippetBytes = 240

    /// Renders several diagnostics, one after another: the first `limit`, then a line saying how
    /// many more there are.
    public func render(_ diagnostics: [Diagnostic], in source: SourceFile) -> String {
        var output = ""
        for diagnostic in diagnostics.prefix(Self.limit) { append(diagnostic, in: source, to: &output) }
        let more = diagnostics.count - Self.limit
        if more > 0 {
            let errors = diagnostics.dropFirst(Self.limit).contains { $0.severity == .error }
            output += sourcePrefix(source) + paint("note: ", .noteLabel)
                + "\(more) more \(errors ? "error" : "warning")\(more == 1 ? "" : "s") not shown\n"
        }
        return output
    }

    /// Renders one diagnostic with its snippet and notes. Every line ends in `\n`.
    public func render(_ diagnostic: Diagnostic, in source: SourceFile) -> String {
        var output = ""
        append(diagnostic, in: source, to: &output)
        return output
    }

    /// (Each piece is appended to one `String`: a diagnostic was a dozen strings joined.)
    private func append(_ diagnostic: Diagnostic, in source: SourceFile, to output: inout String) {
        block(severity: diagnostic.severity, message: diagnostic.message, range: diagnostic.range, in: source, to: &output)
        for note in diagnostic.notes {
            if let range = note.range {
                block(severity: .note, message: note.message, range: range, in: source, to: &output)
            } else {
                output += sourcePrefix(source)
                paint("note: ", .noteLabel, to: &output)
                output += DisplayWidth.printable(text: note.message)
                output += "\n"
            }
        }
    }

    private func block(
        severity: Diagnostic.Severity, message: String, range: SourceRange, in source: SourceFile, to output: inout String
    ) {
        let location = source.location(of: range.offset)
        let style: ANSIStyle
        switch severity {
        case .error: style = .errorLabel
        case .warning: style = .warningLabel
        case .note: style = .noteLabel
        }
        // The file name and the message may quote bytes of the file: never a control character.
        let shownLine = location.line + source.firstLine - 1
        let place = showsPlace ? "\(DisplayWidth.printable(text: source.name)):\(shownLine):\(location.column): " : ""
        let label = "\(severity.rawValue): "
        var text = DisplayWidth.printable(text: message)
        // (A text of at most `messageLimit` bytes has at most as many characters: not counted.)
        if text.utf8.count > Self.messageLimit, text.count > Self.messageLimit { text = String(text.prefix(Self.messageLimit)) + "…" }
        var lines = [text]
        // (Measured only when wrapping: most renderers have no width.)
        if let width, case let prefix = DisplayWidth.of(place) + DisplayWidth.of(label), width - prefix >= 20,
           prefix + DisplayWidth.of(text) > width {
            let wrapped = DisplayWidth.wrap(text, width: width - prefix, rest: width - 2)
            if !wrapped.isEmpty { lines = wrapped }
        }
        paint(place, .bold, to: &output)
        paint(label, style, to: &output)
        paint(lines[0], .bold, to: &output)
        output += "\n"
        for line in lines.dropFirst() {
            output += "  "
            paint(line, .bold, to: &output)
            output += "\n"
        }

        let content = source.lineContentRange(location.line)
        let (shown, caretStart, caretWidth) = snippet(range: range, line: content, in: source)
        let number = String(shownLine)
        // The line, then the caret line under it: `^` then `~` to the range's last column.
        if showsPlace {
            output += "  "
            output += number
            output += " | "
        } else {
            output += "  "
        }
        output += shown
        output += "\n"
        if showsPlace {
            output += "  "
            output += Self.repeated(UInt8(ascii: " "), count: number.utf8.count)
            output += " | "
        } else {
            output += "  "
        }
        output += Self.repeated(UInt8(ascii: " "), count: caretStart)
        if colored { output += ANSIStyle.caret.rawValue }
        output += "^"
        output += Self.repeated(UInt8(ascii: "~"), count: caretWidth - 1)
        if colored { output += ANSIStyle.reset.rawValue }
        output += "\n"
    }

    /// `count` times `byte` (ASCII; nothing when `count` is not positive).
    private static func repeated(_ byte: UInt8, count: Int) -> String {
        guard count > 0 else { return "" }
        return String(unsafeUninitializedCapacity: count) { buffer in
            buffer.initialize(repeating: byte)
            return count
        }
    }

    /// The printable line and the caret's display column and width. A long line is cut to a window
    /// of `snippetBytes` around the caret, with `…` where it was cut (a 48 KB line was printed whole
    /// for each of its errors).
    private func snippet(range: SourceRange, line whole: SourceRange, in source: SourceFile) -> (String, Int, Int) {
        guard whole.length > Self.snippetBytes else { return snippetLine(range: range, line: whole, in: source) }
        let caret = min(max(range.offset, whole.offset), whole.end)
        var low = max(whole.offset, caret - Self.snippetBytes / 3)
        var high = min(whole.end, low + Self.snippetBytes)
        low = max(whole.offset, min(low, high - Self.snippetBytes))
        // Cut at character starts (never inside a UTF-8 sequence).
        while low > whole.offset, low < source.bytes.count, source.bytes[low] & 0xC0 == 0x80 { low -= 1 }
        while high < whole.end, source.bytes[high] & 0xC0 == 0x80 { high += 1 }
        let (shown, caretStart, width) = snippetLine(range: range, line: SourceRange(from: low, to: high), in: source)
        let before = low > whole.offset ? "…" : ""
        let after = high < whole.end ? "…" : ""
        return (before + shown + after, caretStart + before.count, width)
    }

    private func snippetLine(range: SourceRange, line: SourceRange, in source: SourceFile) -> (String, Int, Int) {
        source.bytes.withUnsafeBufferPointer { all in
            // A line, and a window of it cut at character starts, is valid UTF-8: walked in place.
            let lower = min(max(0, line.offset), all.count)
            let bytes = UnsafeBufferPointer(rebasing: all[lower..<min(max(lower, line.end), all.count)])
            let start = min(max(range.offset, line.offset), line.end)
            let end = min(max(range.end, start), line.end)
            var column = 0
            var caretStart: Int?
            var caretEnd = 0
            // Printed, a byte takes at most 8 (a tab), a character 3 a byte otherwise (control
            // pictures), and a table entry is stored as 4 bytes.
            let shown = String(unsafeUninitializedCapacity: 8 * bytes.count + 8) { output in
                guard let out = UnsafeMutableRawPointer(output.baseAddress) else { return 0 }
                var used = 0
                var offset = lower
                DisplayColumns.walk(bytes) { step, length in
                    let next: Int
                    switch step {
                    case .asciiRun(let first, let count):
                        // One byte, one column each: the caret's columns are counted, not walked.
                        if let base = bytes.baseAddress { (out + used).copyMemory(from: base + first, byteCount: count) }
                        used += count
                        if caretStart == nil, start < offset + count { caretStart = column + max(0, start - offset) }
                        if end > offset { caretEnd = column + min(count, end - offset) }
                        offset += count
                        column += count
                        return
                    case .ascii(let byte):
                        out.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
                        used += 1
                        next = column + 1
                    case .tab:
                        next = DisplayColumns.advance(column, by: step)
                        (out + used).storeBytes(of: 0x2020_2020_2020_2020, as: UInt64.self)
                        used += next - column
                    case .simple(let printed):
                        used += printed.store(at: out + used)
                        next = column + printed.width
                    case .complex(let character):
                        next = DisplayWidth.advance(column, by: character)
                        if character == "\t" {
                            (out + used).storeBytes(of: 0x2020_2020_2020_2020, as: UInt64.self)
                            used += next - column
                        } else {
                            for byte in DisplayWidth.printable(character).utf8 {
                                out.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
                                used += 1
                            }
                        }
                    }
                    // (The character holding the caret's start: it starts there or ends past it.)
                    if caretStart == nil, offset + length > start { caretStart = column }
                    offset += length
                    column = next
                    if offset <= end { caretEnd = column }
                }
                return used
            }
            let begin = caretStart ?? column
            return (shown, begin, max(1, caretEnd - begin))
        }
    }

    private func paint(_ text: String, _ style: ANSIStyle) -> String {
        colored ? style.rawValue + text + ANSIStyle.reset.rawValue : text
    }

    private func paint(_ text: String, _ style: ANSIStyle, to output: inout String) {
        if colored { output += style.rawValue }
        output += text
        if colored { output += ANSIStyle.reset.rawValue }
    }
}
