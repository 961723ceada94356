import Foundation

/// Orders full-text title matches the way a reader expects: the canonical book first.
///
/// FTS5's bm25 alone favours short titles full of the query's words — box sets and companion books
/// ("Harry Potter Boxset", "Harry Potter Collection") — over the book itself. Each candidate gets
/// - `exact`: its title (series suffix removed) or original title is the query, word for word;
/// - `prefix`: its title starts with the query's words;
/// - `series`: its series name is (or contains) the query, plus a bonus falling with its number in
///   the series (so "harry potter" lists the series in order, #1 first; novellas such as #4.5 last);
/// - a penalty for collections (box sets, "#1-7" ranges, omnibus editions, companions);
/// - the bm25 order and popularity (log ratings count) as tie-breakers.
/// Across authors (the free-form search, `acrossAuthors`), a query may also name the book's author
/// (`AuthorMention`): a query that is an author's name ranks that author's books above books that
/// only mention the name; title words with an author's surname ("the shining stephen king",
/// "foundation asimov") rank that author's book of that title as the title alone would, and above it.
/// Pure: the scores are computed from the books alone.
package enum TitleRanking {
    static let exactBonus = 5.0
    static let prefixBonus = 1.5
    static let seriesBonus = 1.5
    static let seriesFirstBonus = 1.5
    static let sideStoryPenalty = 0.5
    static let collectionPenalty = 2.5
    static let popularityWeight = 1.5
    static let textWeight = 0.3
    /// A book by the author the whole query names: above a title that merely starts with the
    /// name, below an exact title.
    static let byAuthorBonus = 3.0
    /// A book matched by its title words and its author's surname.
    static let titleAndAuthorBonus = 1.0

    /// Words that mark an edition of several books, or a book about a book.
    static let collectionWords: Set<String> = [
        "boxset", "box", "boxed", "collection", "omnibus", "complete", "bundle", "cookbook", "trilogy",
        "anthology", "collected",
    ]

    /// `candidates` in bm25 order, re-ranked (stable for equal scores).
    package static func rank(_ candidates: [CatalogBook], query: String, acrossAuthors: Bool = false) -> [CatalogBook] {
        let queryWords = HashingEmbedding.tokens(query)
        guard !queryWords.isEmpty, candidates.count > 1 else { return candidates }
        let maxLog = log1p(Double(candidates.map(\.ratingsCount).max() ?? 1))
        let scored = candidates.enumerated().map { rank, book in
            let score = score(
                book,
                queryWords: queryWords,
                bm25Rank: rank,
                of: candidates.count,
                maxLog: maxLog,
                acrossAuthors: acrossAuthors
            )
            return (book, score, rank)
        }
        return scored.sorted { $0.1 > $1.1 || ($0.1 == $1.1 && $0.2 < $1.2) }.map(\.0)
    }

    static func score(
        _ book: CatalogBook,
        queryWords: [String],
        bm25Rank: Int,
        of count: Int,
        maxLog: Double,
        acrossAuthors: Bool = false
    ) -> Double {
        let parsed = CatalogFieldCleaning.series(inTitle: book.title)
        let q = withoutArticle(queryWords)
        let title = withoutArticle(HashingEmbedding.tokens(parsed.base))
        let original = withoutArticle(book.originalTitle.map(HashingEmbedding.tokens) ?? [])
        let collection = isCollection(book, titleWords: title, queryWords: q, seriesSuffix: parsed.series != nil)
        var score = matchScore(book, q: q, title: title, original: original, collection: collection)
        if acrossAuthors {
            switch AuthorMention(queryWords: queryWords, authors: book.authors) {
            case .none:
                break
            case .wholeName:
                score = max(score, byAuthorBonus)
            case .surnameWith(let titleWords):
                let rest = withoutArticle(titleWords)
                score = max(
                    score,
                    matchScore(book, q: rest, title: title, original: original, collection: collection)
                        + titleAndAuthorBonus
                )
            }
        }
        if collection { score -= collectionPenalty }
        score += textWeight * (1 - Double(bm25Rank) / Double(max(count, 1)))
        if maxLog > 0 { score += popularityWeight * log1p(Double(max(0, book.ratingsCount))) / maxLog }
        return score
    }

    /// How well the title, original title and series match the query words `q` (article removed).
    static func matchScore(
        _ book: CatalogBook,
        q: [String],
        title: [String],
        original: [String],
        collection: Bool
    ) -> Double {
        var score = 0.0
        if title == q || original == q {
            // A box set titled like its series ("The Lord of the Rings", #1-3) is not the book itself.
            score += collection ? exactBonus / 2 : exactBonus
        } else if title.starts(with: q) || (!original.isEmpty && original.starts(with: q)) {
            score += prefixBonus
        }
        if let seriesName = book.series {
            let series = withoutArticle(HashingEmbedding.tokens(seriesName))
            let content = HashingEmbedding.content(q)
            var matched = 0.0
            if series == q {
                matched = seriesBonus
            } else if !content.isEmpty, content.allSatisfy(series.contains) {
                matched = seriesBonus * 2 / 3
            }
            if matched > 0 {
                score += matched
                if let n = book.seriesNumber, n >= 1 {
                    // "#4.5" is a novella between the main books: no place in the reading order.
                    score += n == n.rounded() ? seriesFirstBonus / n : -sideStoryPenalty
                }
            }
        }
        return score
    }

    /// Words without a leading article ("the hobbit" and "hobbit" name the same book); also how an
    /// import row's title is compared with a book's (`ImportMatchRule` in the server).
    package static func withoutArticle(_ words: [String]) -> [String] {
        guard words.count > 1, let first = words.first, ["the", "a", "an"].contains(first) else { return words }
        return Array(words.dropFirst())
    }

    /// A box set, a "#1-7" range or a companion/guide — unless the reader asked for one.
    static func isCollection(
        _ book: CatalogBook,
        titleWords: [String],
        queryWords: [String],
        seriesSuffix: Bool
    ) -> Bool {
        if queryWords.contains(where: collectionWords.contains) { return false }
        if titleWords.contains(where: collectionWords.contains) { return true }
        // "(Harry Potter, #1-7)": a range in the series suffix.
        if seriesSuffix, let open = book.title.lastIndex(of: "#") {
            let spec = book.title[open...]
            if spec.contains("-") || spec.contains("–") { return true }
        }
        return false
    }
}
