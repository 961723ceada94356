/// The one filter every string from outside (server, file, URL) passes on its way to the terminal
/// or a CSV file: control characters (C0, DEL, C1 — so ESC, CSI, BEL, CR, backspace), and the
/// bidirectional overrides and isolates that reorder what is shown, become visible and inert.
///
/// C0 controls and DEL turn into their Unicode control pictures (ESC → ␛, CR → ␍), C1 controls and
/// bidi controls into U+FFFD; text is otherwise left alone. Works on Unicode scalars, so the
/// "\r\n" grapheme (one Swift `Character`) is seen as the two controls it is.
package enum TerminalText {
    /// How line breaks are treated.
    package enum Lines: Sendable {
        /// LF stays a line break (CR LF becomes LF; a lone CR becomes ␍).
        case keep
        /// Every line break (LF, CR LF, lone CR) becomes one space: a table cell, a record value.
        case flatten
    }

    /// The neutralised text (unchanged, and not copied, when there is nothing to neutralise).
    package static func sanitize(_ text: String, lines: Lines = .keep) -> String {
        guard text.unicodeScalars.contains(where: needsWork) else { return text }
        var output = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\n":
                if lines == .flatten {
                    if !previousWasCR { output.append(" ") }
                } else {
                    if previousWasCR, output.last == "\u{240D}" { output.removeLast() }
                    output.append("\n")
                }
            case "\r":
                output.append(lines == .flatten ? " " : "\u{240D}")
            case "\t":
                output.append(lines == .flatten ? " " : "\t")
            default:
                output.append(replacement(for: scalar) ?? scalar)
            }
        }
        return String(output)
    }

    /// The visible stand-in for a dangerous scalar, or nil for an ordinary one.
    package static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let value = scalar.value
        if value < 0x20 { return Unicode.Scalar(0x2400 + value) }
        if value == 0x7F { return "\u{2421}" }
        if isC1(value) || isBidiControl(value) { return "\u{FFFD}" }
        return nil
    }

    package static func needsWork(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || value == 0x7F || isC1(value) || isBidiControl(value)
    }

    static func isC1(_ value: UInt32) -> Bool { (0x80...0x9F).contains(value) }

    /// LRM/RLM, ALM, LRE/RLE/PDF/LRO/RLO, LRI/RLI/FSI/PDI.
    static func isBidiControl(_ value: UInt32) -> Bool {
        value == 0x200E || value == 0x200F || value == 0x061C || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }

    /// A CSV field: controls other than CR, LF and TAB neutralised (CR and LF are data inside a
    /// quoted field), then quoted when it holds a comma, quote, CR or LF (RFC 4180).
    package static func csvField(_ text: String) -> String {
        var cleaned = String.UnicodeScalarView()
        var needsQuotes = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r":
                needsQuotes = true
                cleaned.append(scalar)
            case "\t":
                cleaned.append(scalar)
            case ",", "\"":
                needsQuotes = true
                cleaned.append(scalar)
            default:
                cleaned.append(replacement(for: scalar) ?? scalar)
            }
        }
        guard needsQuotes else { return String(cleaned) }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in cleaned {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append("\"") }
        }
        quoted.append("\"")
        return String(quoted)
    }
}
