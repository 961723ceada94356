import Foundation
import Testing

@testable import BooksTrackCatalog

/// Tests/BooksTrackCatalogTests/Fixtures/meaning-relevance.json.
struct MeaningRelevanceSet: Decodable {
    struct Similar: Decodable {
        var id: Int
        var title: String
        var expected: [Int]
    }
    struct Avoid: Decodable {
        var id: Int
        var title: String
        var authorsNot: [String]
        var titleWordsNot: [String]
    }
    struct Personal: Decodable {
        var name: String
        var library: [[Int]]
        var expected: [Int]
        var avoidSeries: [String]?
    }
    struct Theme: Decodable {
        var q: String
        var expected: [Int]
    }
    /// A file of theme queries only (meaning-dev.json).
    struct ThemeSet: Decodable { var themes: [Theme] }
    var similar: [Similar]
    var avoid: [Avoid]
    var personal: [Personal]
    var themes: [Theme]

    static func load() throws -> MeaningRelevanceSet {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/meaning-relevance.json")
        return try JSONDecoder().decode(MeaningRelevanceSet.self, from: Data(contentsOf: url))
    }
}

/// hit@1 and hit@10 of ranked id lists against expected ids.
struct HitRates: CustomStringConvertible {
    var at1 = 0
    var at10 = 0
    var total = 0

    mutating func add(_ ranked: [Int], expected: [Int]) {
        total += 1
        if let first = ranked.first, expected.contains(first) { at1 += 1 }
        if ranked.prefix(10).contains(where: expected.contains) { at10 += 1 }
    }

    var description: String { "hit@1 \(at1)/\(total), hit@10 \(at10)/\(total)" }
}

@Suite(.onWorkThreads) struct MeaningRelevanceTests {
    /// Today's `similar` before readers' shelves: cosine of the title-word hashing embeddings.
    static func titleWordSimilar(_ catalog: SQLiteCatalog, id: Int, limit: Int) throws -> [Int] {
        let vectors = try catalog.vectors
        let books = try catalog.books
        guard let row = vectors.rowOfID[id], let vector = vectors.vector(ofID: id) else { return [] }
        return vectors.withCosines(vector) { cosines in
            VectorIndex.topK(UnsafeBufferPointer(cosines), k: limit, excluding: row).map { books.all[$0].id }
        }
    }

    /// Shelf cosine against title words on the whole similar set; the figures are printed
    /// (`swift test --filter MeaningRelevanceTests`) and the shelves must do clearly better.
    @Test func similarByShelvesBeatsTitleWords() throws {
        let catalog = try SharedCatalog.get()
        let set = try MeaningRelevanceSet.load()
        var before = HitRates()
        var after = HitRates()
        for item in set.similar {
            before.add(try Self.titleWordSimilar(catalog, id: item.id, limit: 10), expected: item.expected)
            let ranked = try #require(try catalog.similar(id: item.id, limit: 10)).map(\.book.id)
            after.add(ranked, expected: item.expected)
        }
        print("[meaning] similar, title words (before): \(before); shelves (after): \(after)")
        // Time per similar (shelf vectors loaded; figures only, a debug build).
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0..<10 { for item in set.similar { _ = try catalog.similar(id: item.id, limit: 10) } }
        }
        print("[meaning] similar by shelves: \(elapsed / (10 * set.similar.count)) per call (debug build)")
        #expect(after.at10 >= set.similar.count * 8 / 10, "\(after)")
        #expect(after.at10 > before.at10 && after.at1 > before.at1)
    }

    /// The famous cases, each of which title-word similarity gets wrong.
    @Test func famousBooksFindTheirKin() throws {
        let catalog = try SharedCatalog.get()
        func top10(_ id: Int) throws -> [CatalogBook] {
            try #require(try catalog.similar(id: id, limit: 10)).map(\.book)
        }
        let ids = { (books: [CatalogBook]) in Set(books.map(\.id)) }
        #expect(!ids(try top10(13)).isDisjoint(with: [55, 48]), "1984 → Brave New World / Fahrenheit 451")
        #expect(!ids(try top10(1)).isDisjoint(with: [12, 91]), "The Hunger Games → Divergent / The Maze Runner")
        #expect(
            !ids(try top10(97)).isDisjoint(with: [390, 1354, 6456, 5581, 95]),
            "Dracula → Jekyll / Carmilla / Dorian Gray"
        )
        for words in try MeaningRelevanceSet.load().avoid {
            let found = try top10(words.id)
            for book in found {
                #expect(!book.authors.contains(where: words.authorsNot.contains), "\(words.title) → \(book.title)")
                let tokens = Set(HashingEmbedding.tokens(book.title))
                #expect(tokens.isDisjoint(with: words.titleWordsNot), "\(words.title) → \(book.title)")
            }
        }
        // Title words gave To Kill a Mockingbird a cat book and Lee Child.
        let before = try Self.titleWordSimilar(catalog, id: 4, limit: 10).compactMap { try catalog.book(id: $0) }
        #expect(
            before.contains { $0.authors.contains("Lee Child") || HashingEmbedding.tokens($0.title).contains("cat") }
        )
    }

    /// At most 3 of a famous book's 10 neighbours are by its own author or in its series, or by any
    /// other one author, and no
    /// boxed set, omnibus or two-in-one volume that holds the book is one.
    @Test func famousBooksReachBeyondTheirAuthor() throws {
        let catalog = try SharedCatalog.get()
        for item in try MeaningRelevanceSet.load().similar {
            let source = try #require(try catalog.book(id: item.id))
            let found = try #require(try catalog.similar(id: item.id, limit: 10)).map(\.book)
            let own = found.filter {
                $0.authors.first == source.authors.first || (source.series != nil && $0.series == source.series)
            }
            #expect(own.count <= 3, "\(source.title): \(own.map(\.title))")
            #expect(found.count - own.count >= 7, "\(source.title): \(found.map(\.title))")
            let authors = found.compactMap(\.authors.first)
            #expect(
                Set(authors).allSatisfy { a in authors.filter { $0 == a }.count <= 3 },
                "\(source.title): \(authors)"
            )
        }
        let titles = { (id: Int) in try #require(try catalog.similar(id: id, limit: 10)).map(\.book.title) }
        let thrones = try titles(39)
        #expect(!thrones.contains { $0.contains("#1-") || $0.contains(" / ") }, "\(thrones)")
        #expect(!(try titles(7)).contains { $0.contains("Boxed Set") })
        #expect(!(try titles(13)).contains("Animal Farm / 1984"))
        #expect(!(try titles(1)).contains { $0.contains("Boxset") })
        // The next volume is among the own books kept, though its shelves are less alike than later ones'.
        #expect(
            try catalog.similar(id: 330, limit: 10)?.contains { $0.book.id == 510 } == true,
            "The Eye of the World → The Great Hunt"
        )
        // Whatever the limit: Dune Messiah is far down Dune's scores, past a small answer's pool.
        for limit in [3, 10] {
            #expect(
                try catalog.similar(id: 126, limit: limit)?.contains { $0.book.title.hasPrefix("Dune Messiah") }
                    == true,
                "\(limit)"
            )
        }
        // Other authors a reader of each will accept.
        #expect(
            !Set(try catalog.similar(id: 39, limit: 10)?.map(\.book.id) ?? []).isDisjoint(with: [
                110, 192, 330, 562, 746, 389,
            ])
        )
    }

    /// One answer per work: the source's other editions and repeated editions are left out.
    @Test func editionsOfOneWorkAreShownOnce() throws {
        let catalog = try SharedCatalog.get()
        for id in [97, 71, 13, 7] {
            let found = try #require(try catalog.similar(id: id, limit: 20))
            let source = try #require(try catalog.book(id: id))
            let keys = found.flatMap { WorkIdentity.keys($0.book) }
            #expect(Set(keys).count == keys.count, "\(source.title)")
            #expect(Set(keys).isDisjoint(with: WorkIdentity.keys(source)), "\(source.title)")
        }
        // The three Jekyll and Hyde rows are one work: Dracula lists at most one.
        let dracula = try #require(try catalog.similar(id: 97, limit: 20)).map(\.book.id)
        #expect(dracula.filter { [390, 1354, 6456].contains($0) }.count <= 1)
        // The Hobbit's graphic novel (Tolkien its second author) is The Hobbit.
        let forHobbitReader = try catalog.personalRecommendations(
            seeds: [LibrarySeed(bookID: 7, weight: 2, because: "you rated 5")],
            limit: 20
        ).map(\.book.id)
        #expect(!forHobbitReader.contains(466))
        #expect(try catalog.similar(id: 999_999, limit: 10) == nil)
    }

    @Test func personalRecommendationsForSmallLibraries() throws {
        let catalog = try SharedCatalog.get()
        let set = try MeaningRelevanceSet.load()
        var rates = HitRates()
        // Before the library was read, `recommend` answered the weekly picks whatever the library held: one list
        // for every library (a fixed week, so the figure is reproducible).
        var before = HitRates()
        let week = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18
        let weekly = try catalog.weeklyRecommendations(weekOf: week, limit: 10).map(\.book.id)
        for library in set.personal {
            before.add(weekly, expected: library.expected)
            let seeds = library.library.map { pair in
                LibrarySeed(
                    bookID: pair[0],
                    weight: pair[1] >= 5 ? 2 : pair[1] >= 4 ? 1 : pair[1] <= 2 ? -1 : 0.25,
                    because: "you rated \(pair[1])"
                )
            }
            let found = try catalog.personalRecommendations(seeds: seeds, limit: 10)
            rates.add(found.map(\.book.id), expected: library.expected)
            let held = Set(library.library.map { $0[0] })
            #expect(found.allSatisfy { !held.contains($0.book.id) }, "\(library.name): a library book came back")
            #expect(found.allSatisfy { $0.reason.contains("like ") }, "\(library.name)")
            let authors = found.compactMap(\.book.authors.first)
            #expect(
                Set(authors).allSatisfy { a in authors.filter { $0 == a }.count <= SQLiteCatalog.perAuthor },
                "\(library.name)"
            )
            for series in library.avoidSeries ?? [] {
                #expect(!found.contains { $0.book.series == series }, "\(library.name): \(series) was rated 1")
            }
        }
        print(
            "[meaning] personal recommendations: the weekly picks (before): \(before); recommend --library (after): \(rates)"
        )
        #expect(rates.at10 >= set.personal.count - 1, "\(rates)")
    }

    @Test func aReasonNamesSharedShelvesAndTheLibraryBook() throws {
        let catalog = try SharedCatalog.get()
        let found = try catalog.personalRecommendations(
            seeds: [LibrarySeed(bookID: 7, weight: 2, because: "you rated 5")],
            limit: 3
        )
        let first = try #require(found.first)
        #expect(first.like.id == 7)
        #expect(first.reason.hasPrefix("shelved "))
        #expect(first.reason.hasSuffix(", like The Hobbit you rated 5"))
        #expect(try catalog.personalRecommendations(seeds: [], limit: 3).isEmpty)
    }
}
