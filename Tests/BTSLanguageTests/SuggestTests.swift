import BTSLanguage
import Testing

@Suite struct SuggestTests {
    @Test func distances() {
        #expect(Suggest.distance("limt", "limit") == 1)
        #expect(Suggest.distance("titel", "title") == 1)
        #expect(Suggest.distance("serach", "search") == 1)
        #expect(Suggest.distance("", "abc") == 3)
        #expect(Suggest.distance("abc", "") == 3)
        #expect(Suggest.distance("kitten", "sitting") == 3)
        #expect(Suggest.distance("LIMIT", "limit") == 0)
        #expect(Suggest.distance("ca", "abc") == 3)
    }

    @Test func closest() {
        let options = ["title", "author", "limit", "output"]
        #expect(Suggest.closest(to: "limt", among: options) == "limit")
        #expect(Suggest.closest(to: "autor", among: options) == "author")
        #expect(Suggest.closest(to: "outptu", among: options) == "output")
        #expect(Suggest.closest(to: "xyz", among: options) == nil)
        #expect(Suggest.closest(to: "", among: options) == nil)
        #expect(Suggest.closest(to: "a", among: ["b", "ab"]) == nil)
        #expect(Suggest.closest(to: "auth", among: options) == "author")
        #expect(Suggest.closest(to: "serch", among: ["search", "semantic", "set"]) == "search")
        #expect(Suggest.closest(to: "se", among: ["search", "semantic", "set"]) == "set")
        #expect(Suggest.closest(to: "lim", among: options) == "limit")
    }

    /// The distance as defined (optimal string alignment over lowercased `Character`s), every cell.
    static func reference(_ a: String, _ b: String) -> Int {
        let s = Array(a.lowercased())
        let t = Array(b.lowercased())
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: t.count + 1), count: s.count + 1)
        for i in 0...s.count { d[i][0] = i }
        for j in 0...t.count { d[0][j] = j }
        for i in 1...s.count {
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[s.count][t.count]
    }

    /// The byte-wise and bounded comparisons give the defined distance and choice, ASCII or not.
    @Test func fastPathsAgreeWithTheDefinition() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcSEARCHé") + ["\u{FEFF}"]
        func word() -> String {
            String(
                (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator) ?? "a"
                }
            )
        }
        for _ in 0..<3_000 {
            let a = word()
            let b = word()
            #expect(Suggest.distance(a, b) == Self.reference(a, b), "\(a) \(b)")
            let candidates = (0..<6).map { _ in word() }
            let length = a.count
            let limit = min(Suggest.threshold(forLength: length), length - 1)
            var expected: String?
            var best = Int.max
            for candidate in candidates {
                let d = Self.reference(a, candidate)
                if d <= limit, d < best { (expected, best) = (candidate, d) }
            }
            let prefixed = candidates.filter { $0.lowercased().hasPrefix(a.lowercased()) }
            if expected == nil, length >= 2, prefixed.count == 1 { expected = prefixed[0] }
            if a.isEmpty { expected = nil }
            #expect(Suggest.closest(to: a, among: candidates) == expected, "\(a) \(candidates)")
        }
    }
}
