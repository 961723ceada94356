import BooksTrackContract
import BooksTrackLibrary
import BooksTrackSupport
import Testing

@testable import BTSShell

@Suite("Completion context and its prefix index", .onWorkThreads)
struct CompletionContextTests {
    @Test("prefix ranges match a brute-force filter (seeded random keys)")
    func prefixRangesMatchBruteForce() {
        var rng = SplitMix64(seed: 42)
        var index = RecencyIndex(capacity: 5_000)
        var all: Set<String> = []
        let alphabet = Array("ab9é-Z ")
        for _ in 0..<3_000 {
            let length = Int(rng.next() % 6) + 1
            let key = String((0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            index.note(key, payload: "p" + key)
            all.insert(key)
        }
        #expect(index.count == all.count)
        for prefix in ["", "a", "ab", "é", "9Z", "zz", " ", "ab9é"] {
            let expected = all.filter { $0.utf8.starts(with: prefix.utf8) }.sorted {
                $0.utf8.lexicographicallyPrecedes($1.utf8)
            }
            #expect(Array(index.keys(withPrefix: prefix)) == expected, "prefix \(prefix)")
            #expect(Array(index.sortedPayloads[index.range(withPrefix: prefix)]) == expected.map { "p" + $0 })
        }
    }

    @Test("bounded: the least recently noted keys go first, re-noting refreshes")
    func eviction() {
        var index = RecencyIndex(capacity: 100)
        for n in 0..<100 { index.note("k\(n)") }
        index.note("k0", payload: "fresh")  // refresh the oldest, new payload
        #expect(index.sortedPayloads[index.range(withPrefix: "k0")].first == "fresh")
        index.note("new")
        #expect(index.count <= 100)
        #expect(index.contains("k0"))
        #expect(index.contains("new"))
        #expect(!index.contains("k1"))
        #expect(index.mostRecent(2) == ["new", "k0"])
        for n in 0..<10_000 { index.note("x\(n)") }
        #expect(index.count <= 100)
        #expect(index.contains("x9999"))
        #expect(index.sortedKeys == index.sortedKeys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(index.sortedPayloads.count == index.sortedKeys.count)
    }

    @Test("books: only valid ISBNs, normalised; titles cleaned and folded")
    func books() {
        var context = CompletionContext()
        context.noteBook(isbn: "978-0-441-17271-9", title: "  Dune\n (1965) ")
        context.noteBook(isbn: "9780441172710", title: nil)  // bad checksum
        context.noteBook(isbn: "0-441-17271-7", title: "Dune")
        #expect(context.isbns.sortedKeys == ["0441172717", "9780441172719"])
        #expect(context.isbns.payload(for: "9780441172719") == "Dune (1965)")
        #expect(context.titles.count == 2)
        #expect(
            CompletionContext.foldTitle("Café GRÖSSE") == "cafe grosse"
                || CompletionContext.foldTitle("Café GRÖSSE") == "cafe grösse"
        )
        #expect(CompletionContext.foldTitle("L'Étranger") == "l'etranger")
        #expect(CompletionContext.isbnPrefix("978-0 44") == "978044")
        #expect(CompletionContext.isbnPrefix("12a") == nil)
    }

    @Test("jobs: most recent first, no duplicates, bounded")
    func jobs() {
        var context = CompletionContext()
        context.noteJob(id: "a", summary: "import")
        context.noteJob(id: "b")
        context.noteJob(id: "a")
        context.noteJob(id: "  ")
        #expect(context.jobs.map(\.id) == ["a", "b"])
        #expect(context.jobs.first?.summary == "import")
        for n in 0..<(CompletionContext.jobCapacity + 50) { context.noteJob(id: "j\(n)") }
        #expect(context.jobs.count == CompletionContext.jobCapacity)
    }

    @Test("harvest finds books and job ids anywhere in a result")
    func harvest() {
        let result: JSONValue = .object([
            "totalCount": .number(2),
            "results": .array([
                .object([
                    "title": .string("Dune"), "isbn": .string("9780441172719"),
                    "isbns": .array([.string("9780441172719"), .string("0441172717")]),
                ]),
                .object(["title": .string("Untitled ISBN-less")]),
                .object(["edition": .object(["isbn13": .string("9780553293357"), "title": .string("Foundation")])]),
            ]),
            "jobId": .string("job-42"),
        ])
        var context = CompletionContext()
        context.harvest(result)
        #expect(context.isbns.sortedKeys == ["0441172717", "9780441172719", "9780553293357"])
        #expect(context.isbns.payload(for: "9780553293357") == "Foundation")
        #expect(
            Set(context.titles.sortedKeys.compactMap { context.titles.payload(for: $0) })
                == ["Dune", "Untitled ISBN-less", "Foundation"]
        )
        #expect(context.jobs.map(\.id) == ["job-42"])
    }

    /// Completion and `save` read ISBNs from the same keys (`BookData.isbnKeys`): every spelling
    /// `save` would store is offered by completion.
    @Test("harvest reads every ISBN spelling the library reads")
    func harvestSharesTheLibrarysISBNKeys() {
        for key in BookData.isbnKeys {
            let book: JSONValue = .object([
                "title": .string("Dune"), key: .string("9780441172719"), "authors": .array([.string("Frank Herbert")]),
            ])
            var context = CompletionContext()
            context.harvest(.array([book]))
            #expect(context.isbns.sortedKeys == ["9780441172719"], "\(key)")
            #expect(BookData.books(in: .array([book])).map(\.isbn13) == ["9780441172719"], "\(key)")
        }
    }

    @Test("harvest is bounded for deep or huge values")
    func harvestBounded() {
        var deep: JSONValue = .object(["title": .string("Deep"), "isbn": .string("9780441172719")])
        for _ in 0..<50 { deep = .object(["next": deep]) }
        var context = CompletionContext()
        context.harvest(deep)
        #expect(context.isbns.count == 0)
        let huge = JSONValue.array((0..<50_000).map { _ in .object(["title": .string("T")]) })
        context.harvest(huge, nodeLimit: 1_000)
        #expect(context.titles.count == 1)
    }

    @Test("the store hands out snapshots and applies updates")
    func store() {
        let store = CompletionContextStore()
        let before = store.completionContext
        store.update {
            $0.noteJob(id: "j1")
            $0.variables.insert("x")
        }
        #expect(before.jobs.isEmpty)
        #expect(store.completionContext.jobs.map(\.id) == ["j1"])
        let engine = CompletionEngine(context: store)
        #expect(engine.tab("echo $") == "echo $x ")
        let page: JSONValue = .object([
            "results": .array([.object(["title": .string("Dune"), "isbn": .string("9780441172719")])])
        ])
        store.harvest(page)
        store.harvest(page)  // same value again: nothing changes
        store.harvest(.null)
        #expect(store.completionContext.isbns.sortedKeys == ["9780441172719"])
        #expect(engine.tab("similar 978") == "similar 9780441172719 ")
    }
}
