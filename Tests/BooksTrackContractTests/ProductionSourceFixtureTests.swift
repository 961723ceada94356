import BooksTrackContract
import Foundation
import TestSupport
import Testing

/// Shapes read in the production source (`Fixtures/source/SOURCES.md` names the file and commit of
/// each), decoded through the tolerant path.
@Suite(.onWorkThreads) struct ProductionSourceFixtureTests {
    static func source(_ name: String) throws -> Data {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/source"),
            "missing fixture source/\(name)"
        )
        return try Data(contentsOf: url)
    }

    static func decode<T: Decodable & Sendable>(_ type: T.Type, _ name: String, status: Int = 200) throws -> T {
        let result = ResponseDecoding.decode(T.self, from: try source(name), status: status)
        guard case .success(let value, _) = result else {
            Issue.record("\(name) did not decode as \(T.self): \(String(describing: result.errorInfo))")
            throw FixtureError.notDecoded
        }
        return value
    }

    @Test func webSocketErrorCarriesAnErrorObject() throws {
        let message = try JSONCoding.decoder().decode(
            WSMessage.self,
            from: Self.source("ws-error-job-state-manager.json")
        )
        guard case .error(let payload) = message.payload else {
            Issue.record("not an error payload: \(message.payload)")
            return
        }
        #expect(payload.code == "E_BATCH_PROCESSING_FAILED")
        #expect(payload.message == "Gemini quota exhausted")
        #expect(payload.retryable == true)
    }

    @Test func webSocketProgressAndComplete() throws {
        let progress = try JSONCoding.decoder().decode(
            WSMessage.self,
            from: Self.source("ws-progress-job-state-manager.json")
        )
        guard case .jobProgress(let p) = progress.payload else {
            Issue.record("not progress")
            return
        }
        #expect(p.progress == 0.4)
        #expect(p.processedCount == 2)
        let complete = try JSONCoding.decoder().decode(
            WSMessage.self,
            from: Self.source("ws-complete-job-state-manager.json")
        )
        guard case .jobComplete(let c) = complete.payload else {
            Issue.record("not complete")
            return
        }
        #expect(c.summary.totalProcessed == 5)
        #expect(c.summary.failureCount == 1)
        #expect(c.expiresAt == "2025-11-24T19:00:01.000Z")
    }

    @Test func batchAcceptedWithTokenOnly() throws {
        let accepted = try Self.decode(BatchJobAccepted.self, "batch-accepted-batch-enrichment.json", status: 202)
        #expect(accepted.jobId == "7f1c2a9e-5d4b-4a8e-9c1f-2b3d4e5f6a7b")
        #expect(accepted.authToken == "0d9b1c7e-3f7a-4c55-8a9e-61b2c3d4e5f6")
        #expect(accepted.totalCount == 5)
    }

    /// One undecodable or empty item never fails the job's results: it degrades to "not found".
    @Test func batchResultsDegradePerItem() throws {
        let rows = try Self.decode([BatchItemResult].self, "batch-results-not-found-success-true.json")
        #expect(rows.count == 4)
        #expect(rows[0].success && rows[0].enriched?.work.title == "Dune")
        #expect(!rows[1].success)
        #expect(rows[1].error == BatchItemResult.notFoundMessage)
        #expect(rows[1].enriched == nil)
        // `edition: null`: the work is kept, the edition is empty.
        #expect(rows[2].success)
        #expect(rows[2].enriched?.work.title == "Foundation")
        #expect(rows[2].enriched?.edition.isbns == [])
        #expect(!rows[3].success && rows[3].error == "Book not found in any provider")
    }

    @Test func canceledFlagWinsOverStatus() throws {
        let status = try Self.decode(JobStatus.self, "job-status-canceled-flag.json")
        #expect(status.status == .canceled)
        #expect(status.pipeline == .batchEnrichment)
    }

    @Test func uniqueAuthorsApplyToEveryWorkWhenThereIsOne() throws {
        let results = try Self.decode(SearchResults.self, "search-title-unique-authors.json")
        #expect(results.items.count == 3)
        #expect(results.items.allSatisfy { $0.authors == ["J.K. Rowling"] })
    }

    @Test func worksNamingTheirOwnAuthorsWin() throws {
        let results = try Self.decode(SearchResults.self, "search-work-authors.json")
        #expect(results.items[0].authors == ["Terry Pratchett", "Neil Gaiman"])
        #expect(results.items[1].authors == ["Neil Gaiman"])
    }

    @Test func softTokenRefusalsAreUnauthorizedWithTheirSentence() throws {
        for name in ["token-refresh-not-allowed.json", "token-refresh-in-progress.json"] {
            let info = try #require(
                ResponseDecoding.decode(JSONValue.self, from: Self.source(name), status: 401).errorInfo
            )
            #expect(info.code == .unauthorized)
            #expect(info.message.hasPrefix("Refresh"))
        }
    }

    @Test func rateLimitWithAnObjectLimit() throws {
        let info = try #require(
            ResponseDecoding.decode(JSONValue.self, from: Self.source("rate-limit-object-limit.json"), status: 429)
                .errorInfo
        )
        #expect(info.code == .rateLimitExceeded)
        #expect(info.requestsLimit == nil)  // `{limit, window}`: not a number, ignored
        #expect(info.retryAfterMs == 41_000 || info.details["retryAfter"]?.intValue == 41)
    }

    @Test func cancelRefusalsBothReadAsNotFound() throws {
        for name in ["cancel-endpoint-not-found.json", "cancel-job-not-found.json"] {
            let info = try #require(
                ResponseDecoding.decode(JSONValue.self, from: Self.source(name), status: 404).errorInfo
            )
            #expect(info.code == .notFound)
        }
    }

    @Test func importStreamEvents() throws {
        let text = String(decoding: try Self.source("sse-import-progress.txt"), as: UTF8.self)
        let events = sseEvents(text)
        #expect(events.map(\.name) == ["processing", "progress", "completed"])
        let last = try JSONCoding.decoder().decode(JobEventPayload.self, from: Data(events[2].data.utf8))
        #expect(last.progress == 1)
        #expect(last.status == .completed)
    }

    @Test func isbndbFallbackBook() throws {
        let results = try Self.decode(SearchResults.self, "search-isbn-isbndb-fallback.json")
        let item = try #require(results.items.first)
        #expect(item.authors == ["Suzanne Collins"])
        #expect(item.isbn == "9780439023481")
        #expect(item.publisher == "Scholastic Press")
    }

    /// The enrich body names the ISBN under both keys production versions read.
    @Test func enrichRequestCarriesBothKeys() throws {
        let body = try encodedObject(EnrichRequest(barcode: "9780441172719"))
        #expect(body["barcode"] == "9780441172719")
        #expect(body["isbn"] == "9780441172719")
    }
}
