extension TerminalText {
    /// Whether `text` holds a scalar that `needsWork` (other than LF when `exceptLineFeeds`), read
    /// from its UTF-8 bytes 8 at a time: a diagnostic's message is checked so, and a fuzz build
    /// counts every comparison made a scalar at a time.
    package static func containsWork(_ text: String, exceptLineFeeds: Bool = false) -> Bool {
        var text = text
        return text.withUTF8 { containsWork($0, exceptLineFeeds: exceptLineFeeds) }
    }

    /// `containsWork` of valid UTF-8. Only a byte below 0x20, DEL, C2 (C1 controls), D8 (U+061C)
    /// or E2 (the other bidi controls) starts a scalar that needs work (`TerminalTextBytesTests`
    /// checks every scalar): a word of 8 bytes without one is passed at once.
    package static func containsWork(_ bytes: UnsafeBufferPointer<UInt8>, exceptLineFeeds: Bool = false) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let count = bytes.count
        // (Controls equal to this byte are not candidates: LF, or a space, which is no control.)
        let kept = ByteWords.ones &* (exceptLineFeeds ? 0x0A : 0x20)
        var index = 0
        // 32 bytes at a time, then 8: output is mostly free of candidates (one branch for 32 bytes).
        while count - index >= 32 {
            let flags = (
                candidates(ByteWords.load(base + index), kept: kept),
                candidates(ByteWords.load(base + index + 8), kept: kept),
                candidates(ByteWords.load(base + index + 16), kept: kept),
                candidates(ByteWords.load(base + index + 24), kept: kept)
            )
            if flags.0 | flags.1 | flags.2 | flags.3 != 0,
                startsWork(flags.0, base, at: index, count: count)
                    || startsWork(flags.1, base, at: index + 8, count: count)
                    || startsWork(flags.2, base, at: index + 16, count: count)
                    || startsWork(flags.3, base, at: index + 24, count: count)
            {
                return true
            }
            index += 32
        }
        while index < count {
            // (Past the end, spaces: never a candidate.)
            let word =
                count - index >= 8
                ? ByteWords.load(base + index) : ByteWords.load(base + index, count: count - index, filler: 0x20)
            if startsWork(candidates(word, kept: kept), base, at: index, count: count) { return true }
            index += 8
        }
        return false
    }

    /// Whether a scalar needing work starts at a byte that `flags` flags in the word at `index`.
    @inline(__always)
    static func startsWork(_ flags: UInt64, _ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Bool {
        var flags = flags
        while flags != 0 {
            if startsWork(base, at: index + ByteWords.first(flags), count: count) { return true }
            flags &= flags &- 1
        }
        return false
    }

    /// The bytes of `word` that may start a scalar needing work: controls but for those equal to
    /// `kept`'s, DEL, C2 before 80 to 9F, D8 before 9C, E2 before 80 or 81 (the last byte's next
    /// one is in the next word: a candidate).
    @inline(__always)
    static func candidates(_ word: UInt64, kept: UInt64) -> UInt64 {
        let high = ByteWords.high
        let next = word >> 8
        let unknown: UInt64 = 0x80 << 56
        let c1 = ByteWords.equal(word, byte: 0xC2) & (ByteWords.equal(next & (ByteWords.ones &* 0xE0), high) | unknown)
        let arabicMark = ByteWords.equal(word, byte: 0xD8) & (ByteWords.equal(next, byte: 0x9C) | unknown)
        let bidi =
            ByteWords.equal(word, byte: 0xE2) & (ByteWords.equal(next & (ByteWords.ones &* 0xFE), high) | unknown)
        return (ByteWords.controls(word) & ~ByteWords.equal(word, kept)) | ByteWords.equal(word, byte: 0x7F) | c1
            | arabicMark | bidi
    }

    /// Whether the scalar starting at `index` of valid UTF-8 needs work (a candidate byte).
    static func startsWork(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Bool {
        let lead = UInt32(base[index])
        let value: UInt32
        if lead < 0x80 {
            value = lead
        } else if lead < 0xE0, count - index >= 2 {
            value = (lead & 0x1F) << 6 | UInt32(base[index + 1] & 0x3F)
        } else if count - index >= 3 {
            value = (lead & 0x0F) << 12 | UInt32(base[index + 1] & 0x3F) << 6 | UInt32(base[index + 2] & 0x3F)
        } else {
            return false
        }
        return Unicode.Scalar(value).map(needsWork) ?? false
    }
}
