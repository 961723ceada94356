import Testing

@testable import BooksTrackCatalog

/// The order of completions from the rows a prefix query read: no database.
@Suite struct CompletionRankingTests {
    @Test func authorsMatchEveryTypedWordAndRankBySummedRatings() {
        let s = CatalogRows.authorSeparator
        let rows: [(text: String, count: Int)] = [
            ("J.R.R. Tolkien", 500), ("Christopher Tolkien\(s)J.R.R. Tolkien", 300),
            ("Christopher Tolkien", 400), ("Émile Tolkienne", 10), ("Someone Else", 1000),
        ]
        #expect(
            CompletionRanking.authors(rows, typed: "tolk", limit: 10)
                == ["J.R.R. Tolkien", "Christopher Tolkien", "Émile Tolkienne"]
        )
        #expect(CompletionRanking.authors(rows, typed: "EMILE tol", limit: 10) == ["Émile Tolkienne"])
        #expect(CompletionRanking.authors(rows, typed: "tolk", limit: 1) == ["J.R.R. Tolkien"])
        #expect(CompletionRanking.authors(rows, typed: "zzz", limit: 10).isEmpty)
    }

    @Test func titlesKeepTheRowOrderOnceEach() {
        let rows: [(text: String, count: Int)] = [("Dune", 9), ("Emma", 8), ("Dune", 7), ("Ulysses", 6)]
        #expect(CompletionRanking.titles(rows, limit: 10) == ["Dune", "Emma", "Ulysses"])
        #expect(CompletionRanking.titles(rows, limit: 2) == ["Dune", "Emma"])
    }
}
