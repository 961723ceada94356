import BooksTrackSupport
import Foundation

/// The order of the catalog's completions, from the rows a prefix query read (no I/O): each row a
/// book's authors (joined by `CatalogRows.authorSeparator`) or title with its ratings count, the
/// most rated first.
enum CompletionRanking {
    /// The authors with a word starting with each typed word, the most rated first (ratings summed
    /// over their books; ties in the order met), at most `limit`.
    static func authors(_ rows: [(text: String, count: Int)], typed: String, limit: Int) -> [String] {
        let words = FTSQuery.terms(typed).map(foldWord)
        var ratings: [String: Int] = [:]
        var order: [String] = []
        for (authors, count) in rows {
            for name in authors.split(separator: CatalogRows.authorSeparator).map(String.init)
            where nameMatches(name, words) {
                if ratings[name] == nil { order.append(name) }
                ratings[name, default: 0] += count
            }
        }
        let ranked = order.enumerated().sorted { lhs, rhs in
            let (l, r) = (ratings[lhs.element] ?? 0, ratings[rhs.element] ?? 0)
            return l != r ? l > r : lhs.offset < rhs.offset
        }
        return ranked.prefix(max(limit, 0)).map(\.element)
    }

    /// The titles in the rows' order, each once, at most `limit`.
    static func titles(_ rows: [(text: String, count: Int)], limit: Int) -> [String] {
        var seen: Set<String> = []
        return Array(rows.map(\.text).filter { seen.insert($0).inserted }.prefix(max(limit, 0)))
    }

    /// Whether every typed word starts a word of `name` (case and accents folded).
    static func nameMatches(_ name: String, _ words: [String]) -> Bool {
        let nameWords = FTSQuery.terms(name).map(foldWord)
        return words.allSatisfy { word in nameWords.contains { $0.hasPrefix(word) } }
    }

    static func foldWord(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
