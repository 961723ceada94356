import BTSShell
import BooksTrackContract
import Testing

/// `recommend --library` for a library holding a series' #1: the series' next books come in
/// series order (the catalog's shelves rank Mockingjay, #3, above Catching Fire, #2).
@Suite struct RecommendLibrarySeriesTests {
    static let hungerGames = "9780439023481"

    @Test func theNextBooksOfASeriesComeInSeriesOrder() async throws {
        try await withShell { shell in
            #expect(
                await shell.run(
                    """
                    search isbn \(Self.hungerGames)
                    save
                    library set \(Self.hungerGames) --shelf read --rating 5
                    recommend --library --limit 10
                    """
                ) == 0,
                "\(shell.err)"
            )
            let titles = (await shell.lastResult()["results"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
            let second = titles.firstIndex { $0.contains("(The Hunger Games, #2)") }
            let third = titles.firstIndex { $0.contains("(The Hunger Games, #3)") }
            #expect(second != nil && third != nil, "\(titles)")
            if let second, let third { #expect(second < third, "\(titles)") }
            #expect(!titles.contains { $0.contains("(The Hunger Games, #1)") }, "\(titles)")
        }
    }
}
