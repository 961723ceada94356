import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackClient

/// The pure rules of API v3: search pages, job ids and tokens, job routes, reported results.
@Suite("V3Mapping")
struct V3MappingTests {
    func names(_ items: [(name: String, value: String)]) -> [String] { items.map { "\($0.name)=\($0.value)" } }

    @Test func anOffsetBecomesThePageThatHoldsIt() {
        let first = V3Mapping.searchQuery("dune", limit: 10, offset: 0)
        #expect(names(first.items) == ["q=dune", "limit=10"])
        #expect(first.skip == 0)
        let later = V3Mapping.searchQuery("dune", limit: 10, offset: 25)
        #expect(names(later.items) == ["q=dune", "limit=10", "page=3"])
        #expect(later.skip == 5)
        let unbounded = V3Mapping.searchQuery("dune", limit: 100_000, offset: 0)
        #expect(names(unbounded.items)[1] == "limit=\(V3Limits.searchPage.upperBound)")
        let defaulted = V3Mapping.searchQuery(String(repeating: "x", count: 500), limit: nil, offset: 0)
        #expect(defaulted.items[0].value.count == SearchPageLimits.queryLength)
        #expect(defaulted.items[1].value == String(SearchPageLimits.defaultLimit))
    }

    @Test func jobRoutesAndCandidates() {
        #expect(
            V3Mapping.jobPath("j1", pipeline: .batchEnrichment, suffix: "/stream") == "/v3/jobs/enrichment/j1/stream"
        )
        #expect(V3Mapping.jobPath("j", pipeline: nil) == KnownRoute.v3Job(.csvImport).path("j"))
        #expect(V3Mapping.candidates(known: .bookshelfScan) == [.bookshelfScan])
        #expect(V3Mapping.candidates(known: nil) == [.csvImport, .batchEnrichment, .bookshelfScan])
    }

    @Test func onlyAUUIDIsAJobID() {
        #expect(throws: Never.self) { try V3Mapping.requireJobID(UUID().uuidString) }
        do {
            try V3Mapping.requireJobID("job-1")
            Issue.record("a non-UUID job id passed")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.httpStatus == 404)
            #expect(error.message.contains("UUIDs"))
        }
    }

    @Test func onlySixtyFourLowercaseHexIsAStreamToken() {
        let hex = String(repeating: "a1", count: 32)
        #expect(V3Mapping.isJobToken(hex))
        #expect(!V3Mapping.isJobToken(hex.uppercased()))
        #expect(!V3Mapping.isJobToken(String(hex.dropLast())))
        #expect(!V3Mapping.isJobToken(UUID().uuidString.lowercased()))
        #expect(V3Mapping.streamToken(kept: hex, given: "other") == hex)
        #expect(V3Mapping.streamToken(kept: "refreshed-uuid", given: hex) == hex)
        #expect(V3Mapping.streamToken(kept: nil, given: "refreshed-uuid") == nil)
    }

    @Test func anEmptyListIsNotWholeAndKeptBooksWin() {
        let empty = V3Mapping.results(.array([]), pipeline: .batchEnrichment, requested: ["9780441172719"], kept: nil)
        #expect(empty == .batch([]))
        let kept = JobResults.batch([BatchItemResult(title: "Dune", isbn: "9780441172719", success: true)])
        #expect(V3Mapping.results(.array([]), pipeline: .batchEnrichment, requested: nil, kept: kept) == kept)
        #expect(
            V3Mapping.results(.array([]), pipeline: .batchEnrichment, requested: nil, kept: .batch([])) == .batch([])
        )
    }

    @Test func aListedResultReportsTheRequestedISBNsItLacks() {
        let listed: JSONValue = .array([.object(["isbn": .string("junk")])])
        let results = V3Mapping.results(listed, pipeline: .batchEnrichment, requested: ["9780441172719"], kept: nil)
        guard case .batch(let rows) = results else {
            Issue.record("not a batch: \(results)")
            return
        }
        #expect(rows.map(\.isbn) == ["9780441172719"])
        #expect(rows.map(\.success) == [false])
    }

    @Test func aConflictOnCancelSaysTheJobFinished() {
        let conflict = BooksTrackError(code: .notFound, kind: .api, message: "Conflict", httpStatus: 409)
        let said = V3Mapping.alreadyFinished(conflict, jobID: "j1")
        #expect(said.code == .conflict)
        #expect(said.message == "Job j1 has already finished; there is nothing to cancel.")
        #expect(said.httpStatus == 409)
    }
}
