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
/// Tabs are expanded to 8-column stops, control characters are shown as Control Pictures and a
/// byte order mark as `<U+FEFF>`, so the caret line always lines up with the printed source line.
package struct DiagnosticRenderer: Sendable {
    /// Emit ANSI colour (bold location/message, red `error:`, green caret line) like clang.
    package var colored: Bool
    /// The terminal's width: a message longer than its line is wrapped at spaces, later lines 2
    /// columns in (nil: one line, as scripts and logs want it).
    package var width: Int?
    /// Start each message with `file:line:col:` and number the snippet's line (false for a line
    /// typed at the prompt: it has no file, and it is the line right above).
    package var showsPlace: Bool

    package init(colored: Bool = false, width: Int? = nil, showsPlace: Bool = true) {
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
    package static let limit = 20
    /// A message is cut after this many characters (it may quote a word of any length).
    static let messageLimit = 500
    /// A source line longer than this many bytes is shown as a window around the caret.
    static let snippetBytes = 240

    /// How a byte order mark (U+FEFF, which shows as nothing) is shown in a diagnostic: a file saved
    /// with one quoted it invisibly ("unknown command 'search'" for a correct-looking command).
    package static let byteOrderMark = "<U+FEFF>"

    /// `text` with each U+FEFF shown as ``byteOrderMark`` (messages, notes and snippets; the
    /// language server's messages too).
    package static func visible(_ text: String) -> String {
        // (U+FEFF is EF BB BF in UTF-8: most text has no 0xEF byte at all.)
        guard text.utf8.contains(0xEF), text.unicodeScalars.contains("\u{FEFF}") else { return text }
        var shown = ""
        shown.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if scalar == "\u{FEFF}" { shown += byteOrderMark } else { shown.unicodeScalars.append(scalar) }
        }
        return shown
    }

    /// Renders several diagnostics, one after another: the first `limit`, then a line saying how
    /// many more there are.
    package func render(_ diagnostics: [Diagnostic], in source: SourceFile) -> String {
        var output = ""
        var walked: WalkedLine?
        for diagnostic in diagnostics.prefix(Self.limit) {
            append(diagnostic, in: source, to: &output, walked: &walked)
        }
        let more = diagnostics.count - Self.limit
        if more > 0 {
            let errors = diagnostics.dropFirst(Self.limit).contains { $0.severity == .error }
            output +=
                sourcePrefix(source) + paint("note: ", .noteLabel)
                + "\(more) more \(errors ? "error" : "warning")\(more == 1 ? "" : "s") not shown\n"
        }
        return output
    }

    /// Renders one diagnostic with its snippet and notes. Every line ends in `\n`.
    package func render(_ diagnostic: Diagnostic, in source: SourceFile) -> String {
        var output = ""
        var walked: WalkedLine?
        append(diagnostic, in: source, to: &output, walked: &walked)
        return output
    }

    /// (Each piece is appended to one `String`: a diagnostic was a dozen strings joined. `walked`
    /// is the last snippet line walked, for the next diagnostic on the same line.)
    private func append(
        _ diagnostic: Diagnostic,
        in source: SourceFile,
        to output: inout String,
        walked: inout WalkedLine?
    ) {
        block(
            severity: diagnostic.severity,
            message: diagnostic.message,
            range: diagnostic.range,
            in: source,
            to: &output,
            walked: &walked
        )
        for note in diagnostic.notes {
            if let range = note.range {
                block(severity: .note, message: note.message, range: range, in: source, to: &output, walked: &walked)
            } else {
                output += sourcePrefix(source)
                paint("note: ", .noteLabel, to: &output)
                output += Self.visible(DisplayWidth.printable(text: note.message))
                output += "\n"
            }
        }
    }

    private func block(
        severity: Diagnostic.Severity,
        message: String,
        range: SourceRange,
        in source: SourceFile,
        to output: inout String,
        walked: inout WalkedLine?
    ) {
        let location = source.location(of: range.offset, walked: walked)
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
        var text = Self.visible(DisplayWidth.printable(text: message))
        // (A text of at most `messageLimit` bytes has at most as many characters: not counted.)
        if text.utf8.count > Self.messageLimit, text.count > Self.messageLimit {
            text = String(text.prefix(Self.messageLimit)) + "…"
        }
        var lines = [text]
        // (Measured only when wrapping: most renderers have no width.)
        if let width, case let prefix = DisplayWidth.of(place) + DisplayWidth.of(label), width - prefix >= 20,
            prefix + DisplayWidth.of(text) > width
        {
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
        let (shown, caretStart, caretWidth) = Self.snippet(range: range, line: content, in: source, walked: &walked)
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

    private func paint(_ text: String, _ style: ANSIStyle) -> String {
        colored ? style.rawValue + text + ANSIStyle.reset.rawValue : text
    }

    private func paint(_ text: String, _ style: ANSIStyle, to output: inout String) {
        if colored { output += style.rawValue }
        output += text
        if colored { output += ANSIStyle.reset.rawValue }
    }
}
