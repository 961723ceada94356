/// "Did you mean …?" suggestions based on the Damerau–Levenshtein (optimal string alignment) distance.
public enum Suggest {
    /// The edit distance between `a` and `b` counting insertions, deletions, substitutions and
    /// transpositions of adjacent characters; case-insensitive.
    public static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a.lowercased())
        let t = Array(b.lowercased())
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        var previous2 = [Int](repeating: 0, count: t.count + 1)
        var previous = Array(0...t.count)
        var current = [Int](repeating: 0, count: t.count + 1)
        for i in 1...s.count {
            current[0] = i
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[t.count]
    }

    /// The largest distance accepted for an input of `length` characters:
    /// 1 for up to 4 characters, 2 up to 7, else 3.
    public static func threshold(forLength length: Int) -> Int {
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
    public static func closest(to input: String, among candidates: some Sequence<String>) -> String? {
        let list = Array(candidates)
        guard !input.isEmpty else { return nil }
        let limit = threshold(forLength: input.count)
        var best: (String, Int)?
        for candidate in list {
            let d = distance(input, candidate)
            guard d <= limit, d < input.count else { continue }
            if best == nil || d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        if let best { return best.0 }
        let lowered = input.lowercased()
        let prefixed = list.filter { $0.lowercased().hasPrefix(lowered) }
        if input.count >= 2, prefixed.count == 1 { return prefixed[0] }
        return nil
    }
}
