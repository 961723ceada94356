import BooksTrackCatalog

/// Whether a catalog book found by a row's title is the book the row means: a wrong match is worse
/// than none, so a candidate must score well enough. Pure: words in, a number out.
///
/// **Title confidence** (0…1). Both titles are compared as words in the catalog index's form
/// (`HashingEmbedding.tokens`: lower case, diacritics folded, apostrophes dropped), a leading article
/// ignored (`TitleRanking.withoutArticle`), the row's title as written and without its series note,
/// the book's title as listed, without its series note, and its original title; the best pair counts:
/// - the same words: 1;
/// - one title is the other followed by more words (a subtitle, a series name): 0.9, or 0.75 when
///   the shorter is a single word ("Dune" is not "Dune Messiah" on the title alone);
/// - words misspelt within the catalog search's own tolerance (`SpellingCorrector.maxDistance`: one
///   edit in a word of 3–5 letters, two from 6; words with digits exactly): the above times
///   1 − edits ÷ letters of the book's words ("The Hobit" → The Hobbit: 1 − 1/6 ≈ 0.83;
///   "Dun" → Dune: 1 − 1/4 = 0.75);
/// - anything else: 0.
///
/// **Author agreement** (when the row has an author): a word of the row's author is, within the same
/// tolerance, the surname (last word) of one of the book's authors ("Tolkien", "J. R. R. Tolkien",
/// "Tolkien, J.R.R." and "Tolkein" agree with J.R.R. Tolkien; "John" agrees with no one).
///
/// **Accepted**: without an author, a title confidence of at least `withoutAuthor` (0.8); with an
/// author, the author must agree and the title confidence be at least `withAuthor` (0.7). So
/// "The Hobit" finds The Hobbit alone, "Dun" finds Dune only with Frank Herbert beside it, and a
/// book by another author is never taken for the row's.
enum ImportMatchRule {
    /// The least title confidence accepted when the row names no author.
    static let withoutAuthor = 0.8
    /// The least title confidence accepted when the row's author agrees with the book's.
    static let withAuthor = 0.7
    /// One title followed by more words.
    static let longerTitle = 0.9
    /// A single word followed by more words.
    static let longerSingleWord = 0.75

    /// The book's confidence when it is accepted for a row with `title` and `author`, else nil.
    static func accepted(_ book: CatalogBook, title: String, author: String?) -> Double? {
        let confidence = titleConfidence(title, book)
        guard let author else { return confidence >= withoutAuthor ? confidence : nil }
        return confidence >= withAuthor && authorAgrees(author, with: book.authors) ? confidence : nil
    }

    /// How surely `book` is the book titled `title` (see the type's rule).
    static func titleConfidence(_ title: String, _ book: CatalogBook) -> Double {
        let base = CatalogFieldCleaning.series(inTitle: title).base
        let rowForms = Set([title, base, CatalogMatcher.stripSeries(title)].map(words)).filter { !$0.isEmpty }
        let bookForms = Set(
            [book.title, CatalogFieldCleaning.series(inTitle: book.title).base, book.originalTitle ?? ""].map(words)
        ).filter { !$0.isEmpty }
        var best = 0.0
        for row in rowForms {
            for candidate in bookForms { best = max(best, confidence(row, candidate)) }
        }
        return best
    }

    /// The confidence of two titles' words (articles already dropped).
    static func confidence(_ row: [String], _ book: [String]) -> Double {
        let shared = min(row.count, book.count)
        guard shared > 0 else { return 0 }
        var edits = 0
        var letters = 0
        for (a, b) in zip(row, book) {
            letters += b.unicodeScalars.count
            guard a != b else { continue }
            guard let distance = spellingDistance(a, b) else { return 0 }
            edits += distance
        }
        let spelling = 1 - Double(edits) / Double(max(letters, 1))
        guard row.count != book.count else { return spelling }
        return spelling * (shared == 1 ? longerSingleWord : longerTitle)
    }

    /// Whether a word of `author` is the surname of one of `authors`, spelling forgiven.
    static func authorAgrees(_ author: String, with authors: [String]) -> Bool {
        let given = HashingEmbedding.tokens(author)
        for name in authors {
            guard let surname = HashingEmbedding.tokens(name).last else { continue }
            if given.contains(where: { $0 == surname || spellingDistance($0, surname) != nil }) { return true }
        }
        return false
    }

    /// The edits between two words when within the catalog search's tolerance for `word`, else nil.
    static func spellingDistance(_ word: String, _ known: String) -> Int? {
        guard !word.contains(where: \.isNumber), !known.contains(where: \.isNumber) else { return nil }
        return EditDistance.bounded(word, known, SpellingCorrector.maxDistance(forLength: word.unicodeScalars.count))
    }

    /// A title's words in the index's form, a leading article dropped.
    static func words(_ title: String) -> [String] {
        TitleRanking.withoutArticle(HashingEmbedding.tokens(title))
    }
}
