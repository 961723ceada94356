/// "Did you mean …?" suggestions based on the Damerau–Levenshtein (optimal string alignment) distance.
///
/// A junk script asks for a suggestion at every line (each unknown command against every command
/// name): ASCII words are compared as bytes in buffers on the stack, a candidate whose length alone
/// puts it out of reach is not compared at all, and a comparison stops as soon as no alignment can
/// come within reach. Other text is compared `Character` by `Character`, as the distance is defined.
package enum Suggest {
    /// The edit distance between `a` and `b` counting insertions, deletions, substitutions and
    /// transpositions of adjacent characters; case-insensitive.
    package static func distance(_ a: String, _ b: String) -> Int {
        if let found = asciiDistance(a, b, limit: Int.max) { return found }
        let s = Array(a.lowercased())
        let t = Array(b.lowercased())
        return s.withUnsafeBufferPointer { s in
            t.withUnsafeBufferPointer { t in bounded(s, t, limit: Int.max, equal: ==) }
        }
    }

    /// The largest distance accepted for an input of `length` characters:
    /// 1 for up to 4 characters, 2 up to 7, else 3.
    package static func threshold(forLength length: Int) -> Int {
        switch length {
        case ..<5: return 1
        case ..<8: return 2
        default: return 3
        }
    }

    /// The candidate closest to `input`, or nil when none is close enough.
    ///
    /// A candidate qualifies when its distance is within ``threshold(forLength:)`` and smaller
    /// than the input's length, or when it is the only candidate that starts with the input
    /// (at least 2 characters). Ties go to the earlier candidate.
    package static func closest(to input: String, among candidates: some Sequence<String>) -> String? {
        closest(to: input, among: Array(candidates))
    }

    /// ``closest(to:among:)`` over an array (what most callers have: not walked through a generic sequence).
    package static func closest(to input: String, among candidates: [String]) -> String? {
        guard !input.isEmpty else { return nil }
        let length = input.count
        // Within the threshold and below the input's length; then strictly better than the best so far.
        var reach = min(threshold(forLength: length), length - 1)
        var best: String?
        var prefixed: String?
        var prefixCount = 0
        // An ASCII input in lower case, compared byte by byte with ASCII candidates.
        var lowered: [UInt8]? = Array(input.utf8)
        if let bytes = lowered, bytes.allSatisfy({ $0 < 0x80 }) { lowered = bytes.map(lower) } else { lowered = nil }
        for candidate in candidates {
            let ascii = lowered.flatMap { needle in
                withASCII(candidate) { candidate in
                    needle.withUnsafeBufferPointer { needle in
                        // (The distance is at least the difference of the lengths.)
                        let found =
                            reach < 0 || abs(needle.count - candidate.count) > reach
                            ? Int.max : bounded(needle, candidate, limit: reach) { $0 == lower($1) }
                        return (found, startsWith(candidate, needle))
                    }
                }
            }
            let found = ascii?.0 ?? (reach < 0 ? Int.max : distance(input, candidate, limit: reach))
            if found <= reach {
                best = candidate
                reach = found - 1
            }
            if best == nil, length >= 2, prefixCount < 2,
                ascii?.1 ?? candidate.lowercased().hasPrefix(input.lowercased())
            {
                prefixCount += 1
                prefixed = prefixed ?? candidate
            }
        }
        if let best { return best }
        return prefixCount == 1 ? prefixed : nil
    }

    /// The distance between `input` and `candidate` (not both ASCII) when it is at most `limit`; a
    /// number above `limit` otherwise.
    private static func distance(_ input: String, _ candidate: String, limit: Int) -> Int {
        let s = Array(input.lowercased())
        let t = Array(candidate.lowercased())
        return s.withUnsafeBufferPointer { s in
            t.withUnsafeBufferPointer { t in bounded(s, t, limit: limit, equal: ==) }
        }
    }

    /// Whether ASCII `candidate` starts with `needle` (ASCII in lower case), ignoring case.
    private static func startsWith(
        _ candidate: UnsafeBufferPointer<UInt8>,
        _ needle: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard candidate.count >= needle.count else { return false }
        for index in 0..<needle.count where needle[index] != lower(candidate[index]) { return false }
        return true
    }

    /// The distance of two ASCII strings, bounded by `limit` (a number above it when it is over);
    /// nil when either is not ASCII.
    private static func asciiDistance(_ a: String, _ b: String, limit: Int) -> Int? {
        let found = withASCII(a) { s in
            withASCII(b) { t -> Int in
                // (The distance is at least the difference of the lengths.)
                if abs(s.count - t.count) > limit { return limit + 1 }
                return bounded(s, t, limit: limit) { lower($0) == lower($1) }
            }
        }
        return found ?? nil
    }

    /// `body` over the UTF-8 bytes of `text` when they are all ASCII; nil otherwise.
    private static func withASCII<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let direct = text.utf8.withContiguousStorageIfAvailable { bytes -> Result? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return body(bytes)
        }
        if let direct { return direct }
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return bytes.withUnsafeBufferPointer(body)
    }

    /// An ASCII letter in lower case (other bytes as they are).
    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// The optimal string alignment distance of `s` and `t`, or `limit + 1` as soon as every
    /// alignment of a prefix of `s` costs more than `limit` (the distance can only grow from there).
    private static func bounded<Element>(
        _ s: UnsafeBufferPointer<Element>,
        _ t: UnsafeBufferPointer<Element>,
        limit: Int,
        equal: (Element, Element) -> Bool
    ) -> Int {
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        let over = limit < Int.max ? limit + 1 : Int.max
        let width = t.count + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows in
            // Three rows: two back (for transpositions), the previous one, the current one.
            guard let base = rows.baseAddress else { return over }
            var previous2 = base
            var previous = base + width
            var current = base + 2 * width
            for j in 0..<width {
                previous2[j] = 0
                previous[j] = j
            }
            var previousSmallest = 0
            for i in 1...s.count {
                current[0] = i
                var smallest = i
                for j in 1...t.count {
                    let cost = equal(s[i - 1], t[j - 1]) ? 0 : 1
                    var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1, j > 1, equal(s[i - 1], t[j - 2]), equal(s[i - 2], t[j - 1]) {
                        value = min(value, previous2[j - 2] + 1)
                    }
                    current[j] = value
                    smallest = min(smallest, value)
                }
                // A cell of the next row costs at least this row's smallest, or the previous row's
                // plus one (a transposition reaches two rows back): past the limit, it stays past it.
                if smallest > limit, previousSmallest >= limit { return over }
                previousSmallest = smallest
                (previous2, previous, current) = (previous, current, previous2)
            }
            return previous[t.count]
        }
    }
}
