import BTSTerminalText

extension DiagnosticRenderer {
    /// The printable line and the caret's display column and width. A long line is cut to a window
    /// of `snippetBytes` around the caret, with `…` where it was cut, so a long line is not printed
    /// whole for each of its errors.
    static func snippet(
        range: SourceRange,
        line whole: SourceRange,
        in source: SourceFile,
        walked: inout WalkedLine?
    ) -> (String, Int, Int) {
        guard whole.length > Self.snippetBytes else {
            return snippetLine(range: range, line: whole, in: source, walked: &walked)
        }
        let caret = min(max(range.offset, whole.offset), whole.end)
        var low = max(whole.offset, caret - Self.snippetBytes / 3)
        var high = min(whole.end, low + Self.snippetBytes)
        low = max(whole.offset, min(low, high - Self.snippetBytes))
        // Cut at character starts (never inside a UTF-8 sequence).
        while low > whole.offset, low < source.bytes.count, source.bytes[low] & 0xC0 == 0x80 { low -= 1 }
        while high < whole.end, source.bytes[high] & 0xC0 == 0x80 { high += 1 }
        let (shown, caretStart, width) = snippetLine(
            range: range,
            line: SourceRange(from: low, to: high),
            in: source,
            walked: &walked
        )
        let before = low > whole.offset ? "…" : ""
        let after = high < whole.end ? "…" : ""
        return (before + shown + after, caretStart + before.count, width)
    }

    /// The line printed, and the caret under `range`: from the column where the character holding
    /// its start begins to the one where the character holding its end begins (the line's end
    /// column past its last character), at least 1 wide. The line is walked once for all the
    /// diagnostics in a row on it: most of a junk script's are.
    private static func snippetLine(
        range: SourceRange,
        line: SourceRange,
        in source: SourceFile,
        walked: inout WalkedLine?
    ) -> (String, Int, Int) {
        let lower = min(max(0, line.offset), source.bytes.count)
        let upper = min(max(lower, line.end), source.bytes.count)
        let current: WalkedLine
        if let walked, walked.lower == lower, walked.upper == upper {
            current = walked
        } else {
            current = source.bytes.withUnsafeBufferPointer { all in
                // A line, and a window of it cut at character starts, is valid UTF-8: walked in place.
                WalkedLine(UnsafeBufferPointer(rebasing: all[lower..<upper]), from: lower)
            }
            walked = current
        }
        let start = min(max(range.offset, line.offset), line.end)
        let end = min(max(range.end, start), line.end)
        let begin = current.column(at: start - lower)
        return (current.shown, begin, max(1, current.column(at: end - lower) - begin))
    }
}

/// A snippet line walked once: what is printed, and the display column where each character
/// starts (a run of printable ASCII is one step: a column a byte).
struct WalkedLine {
    /// The walked bytes' range in the source.
    let lower: Int
    let upper: Int
    let shown: String
    /// Per step, two entries: its first byte's offset from `lower` times 2, plus 1 for a run of
    /// printable ASCII; and the column where it starts.
    private let steps: [Int]
    /// The column after the last character.
    private let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from lower: Int) {
        self.lower = lower
        self.upper = lower + bytes.count
        var column = 0
        var stepCount = 0
        var shown = ""
        // At most one step a byte.
        let steps = [Int](unsafeUninitializedCapacity: 2 * bytes.count) { marks, initialized in
            // Printed, a byte takes at most 8 (a tab), a character 3 a byte otherwise (control
            // pictures; a byte order mark's 3 bytes are 8), and a table entry is stored as 4 bytes.
            shown = String(unsafeUninitializedCapacity: 8 * bytes.count + 8) { output in
                guard let out = UnsafeMutableRawPointer(output.baseAddress) else { return 0 }
                var used = 0
                var offset = 0
                DisplayColumns.walk(bytes) { step, length in
                    marks[2 * stepCount] = 2 * offset
                    marks[2 * stepCount + 1] = column
                    stepCount += 1
                    offset += length
                    switch step {
                    case .asciiRun(let first, let count):
                        marks[2 * stepCount - 2] += 1
                        if let base = bytes.baseAddress {
                            (out + used).copyMemory(from: base + first, byteCount: count)
                        }
                        used += count
                        column += count
                    case .ascii(let byte):
                        out.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
                        used += 1
                        column += 1
                    case .tab:
                        let next = DisplayColumns.advance(column, by: step)
                        (out + used).storeBytes(of: 0x2020_2020_2020_2020, as: UInt64.self)
                        used += next - column
                        column = next
                    case .simple(let printed):
                        used += printed.store(at: out + used)
                        column += printed.width
                    case .complex(let character) where character == "\u{FEFF}":
                        // A byte order mark (its own character: a control for grapheme breaking) is shown.
                        for byte in DiagnosticRenderer.byteOrderMark.utf8 {
                            out.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
                            used += 1
                        }
                        column += DiagnosticRenderer.byteOrderMark.utf8.count
                    case .complex(let character):
                        let next = DisplayWidth.advance(column, by: character)
                        if character == "\t" {
                            (out + used).storeBytes(of: 0x2020_2020_2020_2020, as: UInt64.self)
                            used += next - column
                        } else {
                            for byte in DisplayWidth.printable(character).utf8 {
                                out.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
                                used += 1
                            }
                        }
                        column = next
                    }
                }
                return used
            }
            initialized = 2 * stepCount
        }
        self.shown = shown
        self.steps = steps
        self.end = column
    }

    /// The column where the character holding byte `position` (from `lower`) starts; the end
    /// column at the end.
    func column(at position: Int) -> Int {
        let (column, _) = find(position)
        return column
    }

    /// The column at byte `position` (from `lower`) when a character starts there (the end column
    /// at the end), else nil. It is the display width of the line's bytes before `position`: a
    /// character boundary depends only on the text before it and the scalar after it.
    func column(atStart position: Int) -> Int? {
        let (column, starts) = find(position)
        return starts ? column : nil
    }

    /// The column where the character holding `position` starts, and whether it starts there.
    private func find(_ position: Int) -> (Int, Bool) {
        steps.withUnsafeBufferPointer { steps in
            // The last step starting at or before `position`.
            var low = 0
            var high = steps.count / 2
            guard position < upper - lower, high > 0 else { return (end, position == upper - lower) }
            while high - low > 1 {
                let middle = (low + high) / 2
                if steps[2 * middle] >> 1 <= position { low = middle } else { high = middle }
            }
            let mark = steps[2 * low]
            if mark & 1 == 1 { return (steps[2 * low + 1] + position - mark >> 1, true) }
            return (steps[2 * low + 1], mark >> 1 == position)
        }
    }
}
