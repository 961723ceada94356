import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Synchronization
import Testing

@testable import BTSShell

/// Authors and titles complete from the bundled catalog, the most rated first, quoted when they
/// hold blanks, bounded; a catalog that is not built is never built by a TAB.
@Suite struct CatalogCompletionTests {
    /// A snapshot with the catalog's lookup.
    struct Source: CompletionContextSource {
        var completionContext = CompletionContext()
        var catalogLookup: (any CatalogCompletionLookup)?
    }

    static func engine() throws -> CompletionEngine {
        let catalog = try SharedShellCatalog.get()
        return CompletionEngine(context: Source(catalogLookup: EmbeddedCatalogLookup { catalog }))
    }

    static func answer(_ engine: CompletionEngine, _ line: String) -> CompletionAnswer {
        engine.answer(line: line, cursorOffset: line.utf8.count)
    }

    @Test func anAuthorCompletesFromTheCatalogQuoted() throws {
        let engine = try Self.engine()
        let quoted = Self.answer(engine, "search author \"tolk")
        #expect(quoted.candidates.first == "\"J.R.R. Tolkien\"", "\(quoted.candidates)")
        #expect(quoted.range == 14..<19)
        let bare = Self.answer(engine, "search author tolk")
        #expect(bare.candidates.first == "\"J.R.R. Tolkien\"", "\(bare.candidates)")
        #expect(bare.display?.first == "J.R.R. Tolkien")
        // Bare words before the typed one narrow the name and are replaced with it.
        let words = Self.answer(engine, "search author j r r tolk")
        #expect(words.candidates.first == "\"J.R.R. Tolkien\"", "\(words.candidates)")
        #expect(words.range == 14..<24)
    }

    @Test func authorsAreRankedByRatingsAndBounded() throws {
        let engine = try Self.engine()
        let many = Self.answer(engine, "search author s")
        #expect(!many.candidates.isEmpty && many.candidates.count <= CompletionEngine.catalogLimit)
        #expect(Set(many.candidates).count == many.candidates.count)
        // The most rated author whose name has a word starting with "s" comes first.
        let catalog = try SharedShellCatalog.get()
        let first = try #require(many.display?.first)
        #expect(catalog.authorCompletions("s", limit: 1) == [first])
        #expect(Self.answer(engine, "search author zzzzqx").candidates.isEmpty)
    }

    @Test func titlesCompleteFromTheCatalogToo() throws {
        let engine = try Self.engine()
        let answer = Self.answer(engine, "search title \"the hobbi")
        #expect(answer.candidates.contains { $0.hasPrefix("\"The Hobbit") }, "\(answer.candidates)")
        #expect(answer.candidates.count <= CompletionEngine.catalogLimit)
        // As the session's titles: matched on their beginning, so TAB can extend the common prefix.
        let foundation = Self.answer(engine, "search title \"foundati")
        #expect(
            !foundation.candidates.isEmpty && foundation.candidates.allSatisfy { $0.hasPrefix("\"Foundation") },
            "\(foundation.candidates)"
        )
    }

    /// A remote backend has no catalog here: the authors of results seen (cached answers too) complete.
    @Test func authorsSeenInResultsCompleteWithoutACatalog() {
        var context = CompletionContext()
        context.harvest(
            .record([
                (
                    "results",
                    .array([
                        .record([("title", .string("The Hobbit")), ("authors", .array([.string("J.R.R. Tolkien")]))]),
                        .record([
                            ("title", .string("Dune")),
                            ("authors", .array([.string("Frank Herbert"), .string("Brian Herbert")])),
                        ]),
                    ])
                )
            ])
        )
        let engine = CompletionEngine(context: Source(completionContext: context))
        #expect(Self.answer(engine, "search author tolk").candidates == ["\"J.R.R. Tolkien\""])
        #expect(
            Self.answer(engine, "search author \"herb").candidates.sorted() == [
                "\"Brian Herbert\"", "\"Frank Herbert\"",
            ]
        )
        #expect(Self.answer(engine, "search author fr herb").candidates == ["\"Frank Herbert\""])
        #expect(Self.answer(engine, "search author asim").candidates.isEmpty)
    }

    @Test func aCatalogThatIsNotBuiltAnswersNothingAndIsAskedAgain() {
        let asked = Mutex(0)
        let lookup = EmbeddedCatalogLookup {
            asked.withLock { $0 += 1 }
            return nil
        }
        let engine = CompletionEngine(context: Source(catalogLookup: lookup))
        #expect(Self.answer(engine, "search author \"tolk").candidates.isEmpty)
        #expect(Self.answer(engine, "search author tolk").candidates.isEmpty)
        #expect(asked.withLock { $0 } == 2)
    }

    /// Through the shell: the snapshot it keeps for TAB reaches the embedded backend's catalog
    /// without starting the backend.
    @Test func theShellsSnapshotCompletesAuthorsWithoutStartingTheBackend() async throws {
        try await withShell { harness in
            let store = CompletionContextStore()
            await harness.shell.updateCompletionContext(store)
            let engine = CompletionEngine(context: store)
            #expect(Self.answer(engine, "search author \"tolk").candidates.first == "\"J.R.R. Tolkien\"")
            #expect(await harness.shell.connection == nil, "completion started the backend")
        }
    }
}
