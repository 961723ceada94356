import BooksTrackContract
import Foundation
import TestSupport
import Testing

/// Every production variant the client accepts (docs/contract.md "Client accepts"), decoded from
/// recorded-style bodies in Fixtures/ through the tolerant path.
@Suite(.onWorkThreads) struct ProductionFixtureTests {
    // MARK: Envelopes and errors (§1, §2)

    @Test func legacyEnvelopeWithSuccessAndMetaAndUnknownEnums() throws {
        let (response, metadata) = try decodeFixture(BookSearchResponse.self, "search-title-production.json")
        #expect(metadata?.provider == "google-books")
        #expect(metadata?.processingTime == 812)
        #expect(response.works.count == 2)
        #expect(response.resultCount == 2)  // absent in production: derived
        #expect(response.editions[0].format == EditionFormat("Unknown"))
        #expect(!response.editions[0].format.isKnown)
        #expect(response.works[1].reviewStatus == ReviewStatus("pendingReview"))
        #expect(response.authors[1].gender == AuthorGender("Agender"))
        #expect(response.works[0].contributors == ["google-books"])
        let results = SearchResults(response)
        #expect(results.items.map(\.title) == ["Dune", "Dune Messiah"])
        #expect(results.items[0].isbn == "9780441172719")
        #expect(results.items[0].authors == ["Frank Herbert"])
        #expect(results.items[1].year == 1969)
        #expect(results.items[0].year == 1965)
    }

    @Test func olderEnvelopeWithoutSuccess() throws {
        let (response, metadata) = try decodeFixture(BookSearchResponse.self, "search-isbn-envelope-no-success.json")
        #expect(metadata?.cached == true)
        #expect(metadata?.timestamp == "2025-11-03T18:25:02.004Z")
        #expect(metadata?.date != nil)
        let work = try #require(response.works.first)
        #expect(work.firstPublicationYear == 2008)  // sent as a string
        #expect(work.goodreadsWorkIDs == ["2792775"])  // sent as a number
        #expect(work.isbndbQuality == 88)  // 87.5 rounded
        #expect(work.goodreadsID == "2767052")
        #expect(response.editions.first?.pageCount == 374)
        #expect(response.totalResults == 1)
        // The same body through the normalizing search decoder.
        let (normalized, _) = try decodeFixture(SearchResults.self, "search-isbn-envelope-no-success.json")
        #expect(normalized.items.first?.authors == ["Suzanne Collins"])
        #expect(normalized.items.first?.isbns == ["9780439023481", "0439023483"])
        #expect(normalized.totalResults == 1)
    }

    @Test func v3BooksShape() throws {
        let (results, _) = try decodeFixture(SearchResults.self, "search-v3-books.json")
        #expect(results.totalResults == 57)
        #expect(results.items.count == 2)
        #expect(results.items[0].isbn == "9780451524935")
        #expect(results.items[0].isbns == ["0451524934", "9780451524935"])
        #expect(results.items[0].categories == ["Fiction", "Dystopian"])
        #expect(results.items[0].year == 1961)
        let (legacy, metadata) = try decodeFixture(LegacyBookSearchResponse.self, "search-v3-books.json")
        #expect(legacy.query == "1984")
        #expect(metadata?.source == "openlibrary")
    }

    @Test func v3FlatBook() throws {
        let (results, _) = try decodeFixture(SearchResults.self, "search-v3-flat-book.json")
        #expect(results.items.count == 1)
        #expect(results.items.first?.title == "To Kill a Mockingbird")
        #expect(results.items.first?.authors == ["Harper Lee"])
        #expect(results.items.first?.pageCount == 336)
    }

    @Test func notFoundInOlderEnvelope() throws {
        let result = ResponseDecoding.decode(
            BookSearchResponse.self,
            from: try fixture("error-not-found-no-success.json"),
            status: 404
        )
        guard case .failure(let info, let metadata) = result else {
            Issue.record("expected failure, got \(result)")
            return
        }
        #expect(info.code == .notFound)
        #expect(info.message == "No books found for ISBN 9781234567897")
        #expect(!info.retryable)
        #expect(info.details["isbn"] == "9781234567897")
        #expect(info.httpStatus == 404)
        #expect(info.userMessage == "Book not found. Try a different search.")
        #expect(metadata?.processingTime == 388)
    }

    @Test func circuitOpenWithProviderInsideDetailsOn429() throws {
        let result = ResponseDecoding.decode(
            EnrichedBook.self,
            from: try fixture("error-circuit-open-429-details.json"),
            status: 429
        )
        let info = try #require(result.errorInfo)
        #expect(info.code == .circuitOpen)
        #expect(info.provider == "google_books")
        #expect(info.retryAfterMs == 42_000)
        #expect(info.retryable)
        #expect(info.userMessage == "Google Books is temporarily unavailable. Retrying in 42 seconds…")
        #expect(result.value == nil)
    }

    @Test func rateLimiterNonEnvelope429() throws {
        let result = ResponseDecoding.decode(
            BookSearchResponse.self,
            from: try fixture("error-rate-limiter-429.json"),
            status: 429
        )
        guard case .failure(let info, let metadata) = result else {
            Issue.record("expected failure, got \(result)")
            return
        }
        #expect(metadata == nil)
        #expect(info.code == .rateLimitExceeded)
        #expect(info.message == "Rate limit exceeded. Please try again in 37 seconds.")
        #expect(info.retryAfterMs == 37_000)
        #expect(info.retryAfterSeconds == 37)
        #expect(info.requestsRemaining == 0)
        #expect(info.requestsLimit == 10)
        #expect(info.details["endpoint"] == "/v1/search/title")
        #expect(info.retryable)
        #expect(info.userMessage == "Too many requests. Please wait 37 seconds.")
    }

    @Test func legacySuccessFalseWithMeta() throws {
        let result = ResponseDecoding.decode(
            SearchResults.self,
            from: try fixture("error-legacy-success-false.json"),
            status: 400
        )
        guard case .failure(let info, let metadata) = result else {
            Issue.record("expected failure, got \(result)")
            return
        }
        #expect(info.code == .invalidQuery)
        #expect(info.message == "Search query is required")
        #expect(!info.retryable)
        #expect(metadata?.timestamp == "2025-11-03T18:32:00.000Z")
    }

    @Test func proxyHTML502IsNotJSON() throws {
        let result = ResponseDecoding.decode(BookSearchResponse.self, from: try fixture("proxy-502.html"), status: 502)
        guard case .notJSON(let status, let snippet) = result else {
            Issue.record("expected notJSON, got \(result)")
            return
        }
        #expect(status == 502)
        #expect(snippet == "api.oooefam.net | 502: Bad gateway")
        let info = try #require(result.errorInfo)
        #expect(info.code == .apiError)
        #expect(info.retryable)
        #expect(info.message.contains("502"))
        #expect(throws: APIErrorInfo.self) { try result.get() }
    }

    @Test func emptyBody503IsNotJSON() throws {
        let body = try fixture("proxy-503-empty.txt")
        #expect(body.isEmpty)
        let result = ResponseDecoding.decode(Capabilities.self, from: body, status: 503)
        guard case .notJSON(503, "") = result else {
            Issue.record("expected notJSON(503, \"\"), got \(result)")
            return
        }
        #expect(result.errorInfo?.code == .serviceUnavailable)
        #expect(result.errorInfo?.retryable == true)
        #expect(result.errorInfo?.message.contains("empty body") == true)
    }

    // MARK: Similar (§4)

    @Test func similarProductionBare() throws {
        let (similar, metadata) = try decodeFixture(SimilarResults.self, "similar-production-bare.json")
        #expect(metadata == nil)
        #expect(similar.sourceISBN == "9780441172719")
        #expect(similar.total == 3)
        #expect(similar.items.map(\.isbn) == ["9780441013593", "9780553293357", "9780345391803"])
        #expect(similar.items[0].authors == ["Frank Herbert"])
        #expect(similar.items[0].score == 0.9123)
        #expect(similar.items[2].title == nil && similar.items[2].authors.isEmpty)
        let (raw, _) = try decodeFixture(ProductionSimilarResponse.self, "similar-production-bare.json")
        #expect(SimilarResults(raw) == similar)
    }

    @Test func similarProductionEnveloped() throws {
        let (similar, metadata) = try decodeFixture(SimilarResults.self, "similar-production-enveloped.json")
        #expect(metadata?.processingTime == 95)
        #expect(similar.total == 2)
        #expect(similar.items.map(\.title) == ["Children of Dune", "Foundation"])
    }

    // MARK: v2 search (§4)

    @Test func v2SearchProductionVariants() throws {
        let (response, metadata) = try decodeFixture(V2SearchResponse.self, "v2-search-production.json")
        #expect(metadata?.searchMode == .hybrid)
        #expect(response.totalCount == 3)  // from `count`
        #expect(response.query == .init(q: "space opera politics", mode: .hybrid, limit: 20, offset: 0))
        #expect(response.results[0].authors == ["Frank Herbert"])  // from `author`
        #expect(response.results[0].score == 0.87)  // from `relevance_score`
        #expect(response.results[1].score == 0.71)  // from `similarity_score`
        #expect(response.results[2].score == 0.64 && response.results[2].publishedYear == 1989)
        #expect(response.results[2].isbn == nil)
        let (results, _) = try decodeFixture(SearchResults.self, "v2-search-production.json")
        #expect(results.items.map(\.score) == [0.87, 0.71, 0.64])
    }

    @Test func v2SemanticEmptyIsNoMatchesNotAnError() throws {
        let (response, metadata) = try decodeFixture(V2SearchResponse.self, "v2-search-semantic-empty.json")
        #expect(response.results.isEmpty)
        #expect(response.totalCount == 0)
        #expect(metadata?.searchMode == .semantic)
    }

    // MARK: Capabilities (§4)

    @Test func capabilitiesProduction() throws {
        let (caps, metadata) = try decodeFixture(Capabilities.self, "capabilities-production.json")
        #expect(metadata?.cached == true)
        #expect(caps.dialect == .production)
        #expect(caps.version == "3.2.1")
        #expect(caps.isEnabled(.semanticSearch) == true)
        #expect(caps.isEnabled(.weeklyRecommendations) == false)
        #expect(caps.isEnabled(.similarBooks) == true)  // gated on semantic_search in production
        #expect(caps.isEnabled(.sseProgress) == nil)  // not announced: unknown
        #expect(caps.isEnabled("csvImport") == true)  // name spelling ignored
        #expect(
            caps.limits.maxBatchSize == 100 && caps.limits.csvMaxRows == 10_000 && caps.limits.maxConcurrentJobs == 3
        )
        #expect(caps.limits.raw["maxFileSizeBytes"] == 8_388_608)
        #expect(caps.limits.semanticSearchRPM == 5)  // derived from the feature's rateLimit
        #expect(caps.rate(for: .csvImport) == RateLimit(requests: 5, windowMs: 60_000))
        #expect(caps.deprecations.count == 1)
        #expect(try roundTrip(caps) == caps)  // cache form
    }

    @Test func productionWithSemanticDisabledGatesSimilar() throws {
        let p = ProductionCapabilities(apiVersion: "3", features: [.init(name: "semantic_search", enabled: false)])
        #expect(Capabilities(p).isEnabled(.similarBooks) == false)
        #expect(Capabilities(ProductionCapabilities(apiVersion: "3", features: [])).isEnabled(.similarBooks) == nil)
    }

    // MARK: Weekly (§4)

    @Test func weeklyProduction() throws {
        let (weekly, _) = try decodeFixture(WeeklyRecommendations.self, "weekly-production.json")
        #expect(weekly.weekOf == "2025-11-03")
        #expect(weekly.items.count == 2)
        #expect(weekly.items[0].authors == ["J.D. Salinger"])
        #expect(weekly.items[0].coverURL == "https://covers.example/catcher.jpg")
        #expect(weekly.items[0].score == 0.93)
        #expect(weekly.items[1].score == nil)
        #expect(weekly.totalAvailable == 10)
        #expect(weekly.message == nil)
        let (raw, _) = try decodeFixture(ProductionWeeklyRecommendations.self, "weekly-production.json")
        #expect(WeeklyRecommendations(raw) == weekly)
    }

    @Test func weeklyProductionEmptyWithMessage() throws {
        let (weekly, _) = try decodeFixture(WeeklyRecommendations.self, "weekly-production-empty.json")
        #expect(weekly.items.isEmpty)
        #expect(weekly.message == "No recommendations generated yet for this week")
    }

    // MARK: Enrichment and batch (§4)

    @Test func enrichProduction() throws {
        let (book, metadata) = try decodeFixture(EnrichedBook.self, "enrich-production.json")
        #expect(book.isbn == "9780441172719" && book.vectorized && book.provider == "google_books")
        #expect(book.enrichedAt == "2025-11-03T18:50:00.123Z")
        #expect(metadata?.provider == "google_books")
    }

    @Test func batchAcceptedProduction() throws {
        let (accepted, _) = try decodeFixture(BatchJobAccepted.self, "batch-accepted-production.json")
        #expect(accepted.jobId == "batch_7c1e")
        #expect(accepted.authToken == accepted.token)
        #expect(accepted.totalCount == 3 && accepted.processedCount == 0)
        #expect(accepted.sseUrl == nil)
    }

    @Test func batchResultsProduction() throws {
        let (results, _) = try decodeFixture([BatchItemResult].self, "batch-results-production.json")
        #expect(results.count == 3)
        #expect(results[0].success && results[0].enriched?.edition.format == .massMarket)
        #expect(results[0].enriched?.authors.first?.name == "Frank Herbert")
        #expect(!results[1].success && results[1].enriched == nil && results[1].error == "No results from any provider")
        #expect(results[2].error == "isbndb timed out")  // error object flattened to its message
    }

    @Test func cancelProduction() throws {
        let (cancel, _) = try decodeFixture(CancelResponse.self, "cancel-production.json")
        #expect(cancel.status == .canceled)  // "cancelled" spelling
        #expect(cancel.cleanup["queueMessagesPurged"] == 2)
    }

    // MARK: Jobs and SSE (§5)

    @Test func importAcceptedMinimal() throws {
        let (accepted, _) = try decodeFixture(ImportAccepted.self, "import-accepted-minimal.json")
        #expect(accepted.jobId == "csv_1762195200000_k3j9x")
        #expect(accepted.authToken == "3f1c9a7e-2b4d-4e8f-9a6b-1c2d3e4f5a6b")
        #expect(accepted.token == accepted.authToken)
        #expect(accepted.sseUrl == "/api/v2/imports/csv_1762195200000_k3j9x/stream")
        #expect(accepted.statusUrl == "/api/v2/imports/csv_1762195200000_k3j9x")
    }

    @Test func jobStatusProductionPercentages() throws {
        let (status, _) = try decodeFixture(JobStatus.self, "job-status-production.json")
        #expect(status.status == .completed)
        #expect(status.progress == 1.0)  // 100 → 1.0
        #expect(status.startTime == 1_762_195_200_000)
        #expect(status.completedTime == 1_762_195_262_500)
        #expect(status.pipeline == .csvImport)
    }

    @Test func jobStatusFailedWithISOStartTime() throws {
        let (status, _) = try decodeFixture(JobStatus.self, "job-status-failed-production.json")
        #expect(status.status == .failed)
        #expect(
            status.error
                == JobError(code: .csvProcessingFailed, message: "Unbalanced quotes on line 13", retryable: false)
        )
        #expect(status.startTime == 1_762_195_700_000)
        #expect(status.progress == 0.25)
    }

    @Test func sseProductionProgressStream() throws {
        let text = String(decoding: try fixture("sse-production-progress.txt"), as: UTF8.self)
        let events = sseEvents(text).map { JobStreamEvent.decode(eventName: $0.name, data: $0.data) }
        #expect(events.count == 3)
        guard events.count == 3, case .state(let first) = events[0], case .state(let progress) = events[1],
            case .state(let done) = events[2]
        else {
            Issue.record("unexpected events \(events)")
            return
        }
        #expect(first.status == .initialized && first.progress == 0)
        #expect(progress.status == .processing)  // event `progress`, no status field
        #expect(progress.progress == 0.5 && progress.processedCount == 24)
        #expect(done.status == .completed && done.progress == 1.0)  // 100 → 1.0
        #expect(done.completedAt == "2025-11-03T18:41:02.500Z")
    }

    @Test func sseProductionFailureTimeoutAndError() throws {
        let text = String(decoding: try fixture("sse-production-failed.txt"), as: UTF8.self)
        let events = sseEvents(text).map { JobStreamEvent.decode(eventName: $0.name, data: $0.data) }
        #expect(events.count == 3)
        guard events.count == 3, case .state(let failed) = events[0], case .timeout(let timeout) = events[1],
            case .error(let error) = events[2]
        else {
            Issue.record("unexpected events \(events)")
            return
        }
        #expect(failed.status == .failed)
        #expect(
            failed.error
                == JobError(code: .csvProcessingFailed, message: "Unbalanced quotes on line 13", retryable: false)
        )
        #expect(timeout.jobId == "csv_1762195300000_p0q1r" && timeout.lastStatus == nil && timeout.lastProgress == nil)
        #expect(error.error == StreamErrorPayload.jobNotFound && error.jobId == nil)
    }

    @Test func importResultsProduction() throws {
        let (results, _) = try decodeFixture(ImportResults.self, "import-results-production.json")
        #expect(results.booksCreated == 45 && results.duplicatesSkipped == 2 && results.enrichmentFailed == 2)
        #expect(
            results.errors == [
                ImportRowError(row: 13, isbn: "", error: "Missing title"),
                ImportRowError(row: 27, isbn: "9781234567890", error: "Invalid ISBN checksum"),
            ]
        )
        #expect(results.books[1].authors == ["J.D. Salinger"])
        #expect(results.books[1].isbn13 == "9780316769488")
    }

    // MARK: WebSocket (§6)

    @Test func webSocketProductionMessages() throws {
        let messages = try JSONCoding.decoder().decode(
            [WSMessage].self,
            from: try fixture("ws-production-messages.json")
        )
        #expect(
            messages.map(\.type) == [.readyAck, .jobStarted, .jobProgress, .ping, .jobComplete, .jobComplete, .error]
        )
        #expect(messages[0].payload == .other(.null))
        #expect(messages[1].payload == .jobStarted(.init(totalCount: 3)))
        #expect(
            messages[2].payload
                == .jobProgress(
                    .init(progress: 0.6667, status: "Enriched 2/3 books", processedCount: 2, currentItem: "Dune")
                )
        )
        #expect(messages[3].payload == .ping)
        let summary = JobCompletePayload.Summary(totalProcessed: 3, successCount: 2, failureCount: 1, duration: 8900)
        var withResource = summary
        withResource.resourceId = "batch-results:batch_7c1e"
        #expect(
            messages[4].payload
                == .jobComplete(
                    .init(pipeline: .batchEnrichment, summary: withResource, expiresAt: "2025-11-03T20:41:09.000Z")
                )
        )
        // The flat older form.
        #expect(messages[5].payload == .jobComplete(.init(pipeline: .batchEnrichment, summary: summary, expiresAt: "")))
        #expect(
            messages[6].payload
                == .error(.init(code: .batchProcessingFailed, message: "Provider quota exhausted", retryable: true))
        )
        #expect(messages[2].timestamp == 1_762_195_204_000 && messages[2].version == "1.0.0")
    }
}
