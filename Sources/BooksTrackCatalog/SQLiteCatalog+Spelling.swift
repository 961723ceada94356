import BooksTrackContract
import Foundation
import GRDB

/// The vocabularies of the catalog's spelling tolerance, read once from the full-text index.
struct SpellingVocabularies: Sendable {
    /// Title, original title, series and author words (the free-form title search).
    let everything: SpellingCorrector
    /// Author words (the author search).
    let authors: SpellingCorrector
}

extension SQLiteCatalog {
    /// Which words a correction may use.
    enum SpellingScope: Sendable {
        case everything, authors
    }

    /// The vocabularies (loaded once, at the first query that matches nothing): the index's own
    /// words (`books_vocab`, FTS5's vocabulary of `books_fts`), so a correction is a word the
    /// search finds, tokenized as the index tokenizes.
    var spelling: SpellingVocabularies {
        get throws {
            try loadedSpelling.get {
                var everything: [String: Int] = [:]
                var authors: [String: Int] = [:]
                try database.read { db in
                    let rows = try Row.fetchCursor(db, sql: "SELECT term, col, doc FROM books_vocab")
                    while let row = try rows.next() {
                        let term: String = row[0]
                        let column: String = row[1]
                        let books: Int = row[2]
                        everything[term, default: 0] += books
                        if column == "authors" { authors[term, default: 0] += books }
                    }
                }
                return SpellingVocabularies(
                    everything: SpellingCorrector(frequencies: everything),
                    authors: SpellingCorrector(frequencies: authors)
                )
            }
        }
    }

    /// The first spelling correction of `query` (its words in the index's form, corrected, joined
    /// by spaces) for which `search` finds books, with that search's page; nil when the query's
    /// words are all known, none is within reach, or no correction finds anything.
    func corrected(
        _ query: String,
        scope: SpellingScope,
        search: (String) throws -> CatalogPage
    ) throws -> CatalogPage? {
        let words = HashingEmbedding.tokens(query)
        guard !words.isEmpty else { return nil }
        let vocabulary = try spelling
        let corrector = scope == .authors ? vocabulary.authors : vocabulary.everything
        for form in corrector.corrections(of: words, lastIsPrefix: true) {
            let text = form.joined(separator: " ")
            var page = try search(text)
            if page.total > 0 {
                page.correctedQuery = text
                return page
            }
        }
        return nil
    }
}
