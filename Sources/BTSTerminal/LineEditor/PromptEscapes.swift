#if canImport(Glibc)
import Glibc
#endif

/// Prepares prompts for libedit's `EL_PROMPT_ESC`: every ANSI escape sequence is wrapped in
/// the marker character (`\u{1}`) so libedit prints it but does not count it as width.
enum PromptEscapes {
    /// The marker passed to `EL_PROMPT_ESC` / `EL_RPROMPT_ESC`.
    static let marker: Unicode.Scalar = "\u{01}"

    /// `prompt` with each CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ESC \`) and two-byte
    /// escape bracketed by `marker`. Existing markers in the input are removed first.
    static func bracket(_ prompt: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(prompt.unicodeScalars.filter { $0 != marker })
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "\u{1B}" else {
                out.append(scalar)
                index += 1
                continue
            }
            var end = index + 1
            if end < scalars.count {
                let kind = scalars[end]
                end += 1
                if kind == "[" {
                    while end < scalars.count, !(0x40...0x7E).contains(scalars[end].value) { end += 1 }
                    end = min(end + 1, scalars.count)
                } else if kind == "]" {
                    while end < scalars.count {
                        if scalars[end] == "\u{07}" {
                            end += 1
                            break
                        }
                        if scalars[end] == "\u{1B}", end + 1 < scalars.count, scalars[end + 1] == "\\" {
                            end += 2
                            break
                        }
                        end += 1
                    }
                }
            }
            out.append(marker)
            out.append(contentsOf: scalars[index..<end])
            out.append(marker)
            index = end
        }
        // libedit prints a literal together with the visible character after it (prompt.c,
        // re_putliteral) and drops one that nothing visible follows ("We lose the last literal"):
        // the reset ending a coloured right prompt never reached the terminal, and what was typed
        // next came out yellow. A prompt ending in an escape gets a space for it to go with.
        if out.last == marker { out.append(" ") }
        return String(out)
    }
}

/// Conversions between Swift strings and NUL-terminated `wchar_t` (UTF-32) buffers.
enum WideString {
    /// `string` as NUL-terminated UTF-32 code units (embedded NULs dropped).
    static func make(_ string: String) -> [wchar_t] {
        var units: [wchar_t] = []
        units.reserveCapacity(string.unicodeScalars.count + 1)
        for scalar in string.unicodeScalars where scalar.value != 0 {
            units.append(wchar_t(bitPattern: scalar.value))
        }
        units.append(0)
        return units
    }

    /// Decodes `count` wide characters at `pointer` (invalid code points become U+FFFD).
    static func decode(_ pointer: UnsafePointer<wchar_t>, count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for offset in 0..<max(count, 0) {
            let value = UInt32(bitPattern: pointer[offset])
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// Decodes a NUL-terminated wide string.
    static func decode(_ pointer: UnsafePointer<wchar_t>) -> String {
        var count = 0
        while pointer[count] != 0 { count += 1 }
        return decode(pointer, count: count)
    }
}

/// Calls `body` with a NUL-terminated wide copy of `string`.
func withWideString<R>(_ string: String, _ body: (UnsafePointer<wchar_t>) -> R) -> R {
    let units = WideString.make(string)
    return units.withUnsafeBufferPointer { buffer in
        // `make` always appends the terminator, so the buffer is never empty.
        guard let base = buffer.baseAddress else {
            return withUnsafePointer(to: wchar_t(0)) { body($0) }
        }
        return body(base)
    }
}
