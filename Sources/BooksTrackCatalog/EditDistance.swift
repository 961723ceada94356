/// The optimal-string-alignment form of the Damerau–Levenshtein distance (insertions, deletions,
/// substitutions and transpositions of neighbours, each costing 1; "tolkein" → "tolkien" is 1),
/// bounded: the computation stops as soon as the distance must exceed the bound. Pure.
package enum EditDistance {
    /// The distance between `a` and `b` when it is at most `bound`, else nil.
    package static func bounded(_ a: [UInt32], _ b: [UInt32], _ bound: Int) -> Int? {
        guard bound >= 0, abs(a.count - b.count) <= bound else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let width = b.count + 1
        // Three rows: two before the current one (transpositions look two back).
        var before = [Int](repeating: 0, count: width)
        var previous = Array(0..<width)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, before[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > bound { return nil }
            (before, previous, current) = (previous, current, before)
        }
        let distance = previous[b.count]
        return distance <= bound ? distance : nil
    }

    /// The distance between two words when it is at most `bound`, else nil.
    package static func bounded(_ a: String, _ b: String, _ bound: Int) -> Int? {
        bounded(a.unicodeScalars.map(\.value), b.unicodeScalars.map(\.value), bound)
    }
}
