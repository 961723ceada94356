import BooksTrackContract
import Foundation
import Testing

/// Round trips of every stand-in type, checking the exact JSON key names the stand-in sends.
@Suite struct StandInEncodingTests {
    static let work = WorkDTO(
        title: "Dune",
        subjectTags: ["Science Fiction"],
        goodreadsWorkIDs: ["3634639"],
        isbndbQuality: 80,
        reviewStatus: .verified,
        firstPublicationYear: 1965,
        coverImageURL: "https://covers.example/dune.jpg",
        primaryProvider: "catalog",
        searchLinks: .init(openLibrary: "https://openlibrary.org/search?q=dune")
    )
    static let edition = EditionDTO(
        isbns: ["9780441172719", "0441172717"],
        format: .massMarket,
        isbndbQuality: 80,
        isbn: "9780441172719",
        title: "Dune",
        publisher: "Ace",
        publicationDate: "1990",
        pageCount: 535
    )
    static let author = AuthorDTO(name: "Frank Herbert", gender: .male, birthYear: 1920, deathYear: 1986)

    @Test func bookSearchResponseKeys() throws {
        let response = BookSearchResponse(works: [Self.work], editions: [Self.edition], authors: [Self.author])
        let obj = try encodedObject(response)
        #expect(Set(obj.keys) == ["works", "editions", "authors", "resultCount"])  // totalResults omitted
        #expect(obj["resultCount"] == 1)
        let work = try #require(obj["works"]?.arrayValue?.first?.objectValue)
        #expect(
            Set(work.keys) == [
                "title", "subjectTags", "goodreadsWorkIDs", "amazonASINs", "librarythingIDs", "googleBooksVolumeIDs",
                "isbndbQuality", "reviewStatus", "firstPublicationYear", "coverImageURL", "primaryProvider",
                "searchLinks",
            ]
        )
        #expect(work["searchLinks"] == ["openLibrary": "https://openlibrary.org/search?q=dune"])
        let edition = try #require(obj["editions"]?.arrayValue?.first?.objectValue)
        #expect(
            Set(edition.keys) == [
                "isbns", "format", "amazonASINs", "googleBooksVolumeIDs", "librarythingIDs", "isbndbQuality", "isbn",
                "title", "publisher", "publicationDate", "pageCount",
            ]
        )
        #expect(edition["format"] == "Mass Market")
        let author = try #require(obj["authors"]?.arrayValue?.first?.objectValue)
        #expect(Set(author.keys) == ["name", "gender", "birthYear", "deathYear"])
        #expect(try roundTrip(response) == response)
        #expect(
            try encodedString(BookSearchResponse.empty) == #"{"authors":[],"editions":[],"resultCount":0,"works":[]}"#
        )
    }

    @Test func enumsEncodeTheirDocumentedSpelling() throws {
        #expect(try encodedString([EditionFormat.ebook, .hardcover, .other]) == #"["E-book","Hardcover","Other"]"#)
        #expect(try encodedString([ReviewStatus.needsReview, .userEdited]) == #"["needsReview","userEdited"]"#)
        #expect(try encodedString([AuthorGender.nonBinary, .unknown]) == #"["Non-binary","Unknown"]"#)
        #expect(EditionFormat("Unknown").isKnown == false)
        #expect(EditionFormat.known.count == 6 && ReviewStatus.known.count == 3 && AuthorGender.known.count == 5)
    }

    @Test func flatBookKeys() throws {
        let book = Book(
            isbn: "0441172717",
            isbn13: "9780441172719",
            title: "Dune",
            authors: ["Frank Herbert"],
            pageCount: 535
        )
        let obj = try encodedObject(book)
        #expect(Set(obj.keys) == ["isbn", "isbn13", "title", "authors", "pageCount"])
        #expect(try roundTrip(book) == book)
        let legacy = LegacyBookSearchResponse(books: [book], query: "dune")
        #expect(Set(try encodedObject(legacy).keys) == ["books", "totalResults", "query"])
        #expect(try roundTrip(legacy) == legacy)
    }

    @Test func similarBooksUseSnakeCase() throws {
        let response = SimilarBooksResponse(
            results: [
                .init(
                    isbn: "9780441013593",
                    title: "Children of Dune",
                    authors: ["Frank Herbert"],
                    similarityScore: 0.91
                ),
                .init(
                    isbn: "9780553293357",
                    title: "Foundation",
                    authors: ["Isaac Asimov"],
                    similarityScore: 0.84,
                    coverUrl: "https://c/f.jpg"
                ),
            ],
            sourceISBN: "9780441172719"
        )
        let obj = try encodedObject(response)
        #expect(Set(obj.keys) == ["results", "source_isbn", "total"])
        #expect(obj["total"] == 2)
        let first = try #require(obj["results"]?.arrayValue?.first?.objectValue)
        #expect(Set(first.keys) == ["isbn", "title", "authors", "similarity_score"])
        #expect(obj["results"]?.arrayValue?[1]["cover_url"] == "https://c/f.jpg")
        #expect(try roundTrip(response) == response)
        // The client's normalized view of the stand-in body.
        let normalized = try JSONCoding.decoder().decode(
            SimilarResults.self,
            from: JSONCoding.encoder().encode(response)
        )
        #expect(normalized == SimilarResults(response))
        #expect(normalized.sourceISBN == "9780441172719")
        #expect(normalized.items.map(\.score) == [0.91, 0.84])
        #expect(try roundTrip(normalized) == normalized)
    }

    @Test func v2SearchKeys() throws {
        let response = V2SearchResponse(
            query: .init(q: "dune", mode: .hybrid, limit: 20, offset: 0),
            results: [
                SearchHit(
                    isbn: "9780441172719",
                    title: "Dune",
                    authors: ["Frank Herbert"],
                    publishedYear: 1965,
                    score: 0.93
                ),
                SearchHit(title: "Dune (untitled edition)", authors: [], score: 0.5),
            ]
        )
        let obj = try encodedObject(response)
        #expect(Set(obj.keys) == ["query", "results", "totalCount"])
        #expect(obj["query"] == ["q": "dune", "mode": "hybrid", "limit": 20, "offset": 0])
        #expect(
            obj["results"]?.arrayValue?[0].objectValue.map { Set($0.keys) } == [
                "isbn", "title", "authors", "publishedYear", "score",
            ]
        )
        #expect(obj["results"]?.arrayValue?[1].objectValue.map { Set($0.keys) } == ["title", "authors", "score"])
        #expect(try roundTrip(response) == response)
        #expect(SearchMode.allCases.map(\.rawValue) == ["text", "semantic", "hybrid", "similar"])
    }

    @Test func capabilitiesKeys() throws {
        let response = CapabilitiesResponse(features: CapabilitiesResponse.allFeatures(), version: "bts-0.1.0")
        let obj = try encodedObject(response)
        #expect(Set(obj.keys) == ["features", "limits", "version"])
        #expect(
            obj["limits"] == [
                "semantic_search_rpm": 5, "text_search_rpm": 100, "csv_max_rows": 10000, "max_batch_size": 100,
            ]
        )
        #expect(
            obj["features"]?.objectValue.map { Set($0.keys) } == [
                "semantic_search", "similar_books", "weekly_recommendations", "csv_import", "batch_enrichment",
                "sse_progress", "job_cancellation", "bookshelf_scan",
            ]
        )
        #expect(try roundTrip(response) == response)

        let caps = try JSONCoding.decoder().decode(Capabilities.self, from: JSONCoding.encoder().encode(response))
        #expect(caps.dialect == .standIn)
        #expect(caps.version == "bts-0.1.0")
        #expect(caps.isEnabled(.similarBooks) == true)
        #expect(caps.isEnabled("nonexistent_feature") == nil)
        #expect(
            caps.limits.semanticSearchRPM == 5 && caps.limits.maxBatchSize == 100
                && caps.limits.maxConcurrentJobs == nil
        )
        // The client's cache form round-trips too.
        #expect(try roundTrip(caps) == caps)
    }

    @Test func standInWithSimilarDisabledIsNotGatedOnSemantic() throws {
        var features = CapabilitiesResponse.allFeatures()
        features["similar_books"] = false
        let caps = Capabilities(CapabilitiesResponse(features: features, version: "x"))
        #expect(caps.isEnabled(.similarBooks) == false)
        #expect(caps.isEnabled(.semanticSearch) == true)
    }

    @Test func weeklyRecommendationsUseSnakeCase() throws {
        let response = WeeklyRecommendationsResponse(
            weekOf: "2026-01-05",
            books: [
                .init(
                    isbn: "9780441172719",
                    title: "Dune",
                    authors: ["Frank Herbert"],
                    coverUrl: "https://c/d.jpg",
                    reason: "Top rated"
                ),
                .init(isbn: "9780553293357", title: "Foundation", authors: ["Isaac Asimov"], reason: "Classic"),
            ],
            generatedAt: "2026-01-05T00:00:00.000Z",
            nextRefresh: "2026-01-12T00:00:00.000Z"
        )
        let obj = try encodedObject(response)
        #expect(Set(obj.keys) == ["week_of", "books", "generated_at", "next_refresh"])
        #expect(
            obj["books"]?.arrayValue?[0].objectValue.map { Set($0.keys) } == [
                "isbn", "title", "authors", "cover_url", "reason",
            ]
        )
        #expect(
            obj["books"]?.arrayValue?[1].objectValue.map { Set($0.keys) } == ["isbn", "title", "authors", "reason"]
        )
        #expect(try roundTrip(response) == response)
        let normalized = try JSONCoding.decoder().decode(
            WeeklyRecommendations.self,
            from: JSONCoding.encoder().encode(response)
        )
        #expect(normalized == WeeklyRecommendations(response))
        #expect(normalized.items.first?.coverURL == "https://c/d.jpg")
        #expect(try roundTrip(normalized) == normalized)
    }

    @Test func enrichRequestKeysAndIsbnAlias() throws {
        let request = EnrichRequest(barcode: "9780441172719", preferProvider: .googleBooks, idempotencyKey: "k-1")
        // The ISBN goes under both keys production versions read (v2/enrich.ts: `barcode || isbn`).
        #expect(
            try encodedObject(request) == [
                "barcode": "9780441172719", "isbn": "9780441172719", "prefer_provider": "google_books",
                "idempotency_key": "k-1",
            ]
        )
        #expect(try encodedObject(EnrichRequest(barcode: "1")) == ["barcode": "1", "isbn": "1"])
        #expect(try roundTrip(request) == request)
        let aliased = try JSONCoding.decoder().decode(EnrichRequest.self, from: Data(#"{"isbn":"9780441172719"}"#.utf8))
        #expect(aliased.barcode == "9780441172719")
        #expect(throws: DecodingError.self) {
            try JSONCoding.decoder().decode(EnrichRequest.self, from: Data(#"{"prefer_provider":"auto"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONCoding.decoder().decode(
                EnrichRequest.self,
                from: Data(#"{"barcode":"1","prefer_provider":"amazon"}"#.utf8)
            )
        }
    }

    @Test func enrichedBookKeys() throws {
        let book = EnrichedBook(
            isbn: "9780441172719",
            title: "Dune",
            authors: ["Frank Herbert"],
            publisher: "Ace",
            provider: "catalog",
            enrichedAt: "2026-01-05T10:00:00.000Z",
            vectorized: true
        )
        #expect(
            Set(try encodedObject(book).keys) == [
                "isbn", "title", "authors", "publisher", "provider", "enrichedAt", "vectorized",
            ]
        )
        #expect(try roundTrip(book) == book)
    }

    @Test func batchTypesKeys() throws {
        let books = BatchEnrichRequest.books(
            [BatchBook(title: "Dune", author: "Frank Herbert"), BatchBook(title: "Emma", isbn: "9780141439587")],
            jobId: "job-1"
        )
        #expect(Set(try encodedObject(books).keys) == ["books", "jobId"])
        #expect(try encodedObject(books)["books"]?.arrayValue?[0] == ["title": "Dune", "author": "Frank Herbert"])
        #expect(try roundTrip(books) == books)
        let barcodes = BatchEnrichRequest.barcodes(["9780441172719"])
        #expect(try encodedObject(barcodes) == ["barcodes": ["9780441172719"]])
        #expect(barcodes.items == [BatchBook(title: "", isbn: "9780441172719")])
        #expect(BatchEnrichRequest.barcodes([]).sizeError() == .emptyBatch)
        #expect(BatchEnrichRequest.barcodes(Array(repeating: "1", count: 101)).sizeError() == .batchTooLarge)
        #expect(barcodes.sizeError() == nil)

        let accepted = BatchJobAccepted(
            jobId: "job-1",
            authToken: "tok",
            totalCount: 2,
            sseUrl: "/api/v2/imports/job-1/stream"
        )
        #expect(
            try encodedObject(accepted) == [
                "jobId": "job-1", "authToken": "tok", "token": "tok", "totalCount": 2, "processedCount": 0,
                "sseUrl": "/api/v2/imports/job-1/stream",
            ]
        )
        #expect(try roundTrip(accepted) == accepted)

        let result = BatchItemResult(
            title: "Dune",
            author: "Frank Herbert",
            isbn: "9780441172719",
            success: true,
            enriched: EnrichedRecord(work: Self.work, edition: Self.edition, authors: [Self.author])
        )
        #expect(Set(try encodedObject(result).keys) == ["title", "author", "isbn", "success", "enriched"])
        #expect(
            try encodedObject(result)["enriched"]?.objectValue.map { Set($0.keys) } == ["work", "edition", "authors"]
        )
        let failed = BatchItemResult(title: "Nope", success: false, error: "not found")
        #expect(try encodedObject(failed) == ["title": "Nope", "success": false, "error": "not found"])
        #expect(try roundTrip([result, failed]) == [result, failed])

        let cancel = CancelResponse(jobId: "job-1", message: "Job canceled", cleanup: ["resultsDeleted": true])
        #expect(
            try encodedObject(cancel) == [
                "jobId": "job-1", "status": "canceled", "message": "Job canceled", "cleanup": ["resultsDeleted": true],
            ]
        )
        #expect(try roundTrip(cancel) == cancel)
    }

    @Test func importAndJobKeys() throws {
        let accepted = ImportAccepted(jobId: "j1", authToken: "t1")
        #expect(
            try encodedObject(accepted) == [
                "jobId": "j1", "authToken": "t1", "sseUrl": "/api/v2/imports/j1/stream",
                "statusUrl": "/api/v2/imports/j1",
            ]
        )
        #expect(try roundTrip(accepted) == accepted)

        let status = JobStatus(
            jobId: "j1",
            status: .processing,
            progress: 0.5,
            processedCount: 50,
            totalCount: 100,
            pipeline: .csvImport,
            startTime: 1_767_607_200_000
        )
        #expect(
            try encodedObject(status) == [
                "jobId": "j1", "status": "processing", "progress": 0.5, "processedCount": 50, "totalCount": 100,
                "pipeline": "csv_import", "startTime": 1_767_607_200_000,
            ]
        )
        #expect(try roundTrip(status) == status)
        var failed = status
        failed.status = .failed
        failed.completedTime = 1_767_607_260_000
        failed.error = JobError(code: .csvProcessingFailed, message: "Unbalanced quotes")
        #expect(
            try encodedObject(failed)["error"] == [
                "code": "E_CSV_PROCESSING_FAILED", "message": "Unbalanced quotes", "retryable": false,
            ]
        )
        #expect(try roundTrip(failed) == failed)

        let results = ImportResults(
            booksCreated: 2,
            booksUpdated: 0,
            duplicatesSkipped: 1,
            enrichmentSucceeded: 2,
            enrichmentFailed: 0,
            errors: [ImportRowError(row: 4, isbn: "123", error: "Invalid ISBN")],
            books: [Book(isbn: "9780441172719", title: "Dune", authors: ["Frank Herbert"])]
        )
        #expect(
            Set(try encodedObject(results).keys) == [
                "booksCreated", "booksUpdated", "duplicatesSkipped", "enrichmentSucceeded", "enrichmentFailed",
                "errors", "books",
            ]
        )
        #expect(try encodedObject(results)["errors"] == [["row": 4, "isbn": "123", "error": "Invalid ISBN"]])
        #expect(try roundTrip(results) == results)
    }

    @Test func sseEventPayloadKeys() throws {
        let event = JobEventPayload(
            jobId: "j1",
            status: .completed,
            progress: 1,
            processedCount: 10,
            totalCount: 10,
            completedAt: "2026-01-05T10:00:00.000Z"
        )
        #expect(
            try encodedObject(event) == [
                "jobId": "j1", "status": "completed", "progress": 1, "processedCount": 10, "totalCount": 10,
                "completedAt": "2026-01-05T10:00:00.000Z",
            ]
        )
        #expect(try roundTrip(event) == event)
        let timeout = StreamTimeoutPayload(
            message: "No progress for 5 minutes",
            jobId: "j1",
            lastStatus: .processing,
            lastProgress: 0.4
        )
        #expect(
            try encodedObject(timeout) == [
                "error": "stream_timeout", "message": "No progress for 5 minutes", "jobId": "j1",
                "lastStatus": "processing", "lastProgress": 0.4,
            ]
        )
        #expect(try roundTrip(timeout) == timeout)
        let error = StreamErrorPayload(error: StreamErrorPayload.jobNotFound, message: "Job j9 not found")
        #expect(try encodedObject(error) == ["error": "job_not_found", "message": "Job j9 not found"])
        #expect(try roundTrip(error) == error)
        // Through the event decoder.
        let decoded = JobStreamEvent.decode(eventName: "completed", data: try encodedString(event))
        #expect(decoded == .state(event))
        #expect(JobStreamEvent.decode(eventName: "timeout", data: try encodedString(timeout)) == .timeout(timeout))
        #expect(JobStreamEvent.decode(eventName: "error", data: try encodedString(error)) == .error(error))
    }

    @Test func webSocketMessagesKeys() throws {
        let progress = WSMessage(
            jobId: "b1",
            pipeline: .batchEnrichment,
            timestamp: 1_767_607_200_000,
            payload: .jobProgress(.init(progress: 0.5, status: "Enriching 1/2", processedCount: 1))
        )
        let obj = try encodedObject(progress)
        #expect(Set(obj.keys) == ["type", "jobId", "pipeline", "timestamp", "version", "payload"])
        #expect(obj["type"] == "job_progress")
        #expect(obj["payload"] == ["progress": 0.5, "status": "Enriching 1/2", "processedCount": 1])
        let complete = WSMessage(
            jobId: "b1",
            pipeline: .batchEnrichment,
            timestamp: 1_767_607_210_000,
            payload: .jobComplete(
                .init(
                    pipeline: .batchEnrichment,
                    summary: .init(totalProcessed: 2, successCount: 1, failureCount: 1, duration: 9000),
                    expiresAt: "2026-01-05T12:00:00.000Z"
                )
            )
        )
        #expect(
            try encodedObject(complete)["payload"] == [
                "pipeline": "batch_enrichment", "expiresAt": "2026-01-05T12:00:00.000Z",
                "summary": ["totalProcessed": 2, "successCount": 1, "failureCount": 1, "duration": 9000],
            ]
        )
        let started = WSMessage(
            jobId: "b1",
            pipeline: .batchEnrichment,
            timestamp: 1,
            payload: .jobStarted(.init(totalCount: 2))
        )
        let error = WSMessage(
            jobId: "b1",
            pipeline: .batchEnrichment,
            timestamp: 2,
            payload: .error(.init(code: .batchProcessingFailed, message: "boom", retryable: false))
        )
        let ping = WSMessage(jobId: "b1", pipeline: .batchEnrichment, timestamp: 3, payload: .ping)
        let pong = WSMessage(jobId: "b1", pipeline: .batchEnrichment, timestamp: 4, payload: .pong)
        #expect(try encodedObject(ping)["payload"] == [:])
        #expect(
            try encodedObject(error)["payload"] == [
                "code": "E_BATCH_PROCESSING_FAILED", "message": "boom", "retryable": false,
            ]
        )
        for message in [progress, complete, started, error, ping, pong] {
            #expect(try roundTrip(message) == message)
        }
        #expect(try encodedString(WSClientMessage.ready) == #"{"type":"ready"}"#)
        #expect(WSCloseCode.authSubprotocol(token: "abc") == "bookstrack-auth.abc")

        let refresh = TokenRefreshRequest(jobId: "b1", oldToken: "old")
        #expect(try encodedObject(refresh) == ["jobId": "b1", "oldToken": "old"])
        let refreshed = TokenRefreshResponse(jobId: "b1", token: "new", expiresIn: 7200)
        #expect(try encodedObject(refreshed) == ["jobId": "b1", "token": "new", "expiresIn": 7200])
        #expect(try roundTrip(refresh) == refresh && roundTrip(refreshed) == refreshed)
    }

    @Test func closeCodes() {
        #expect(WSCloseCode(rawValue: 1000) == .normal)
        #expect(WSCloseCode.goingAway.retryDelaySeconds == 5)
        #expect(WSCloseCode.tryAgainLater.retryDelaySeconds == 30)
        #expect(WSCloseCode.internalError.usesBackoff && WSCloseCode.internalError.shouldReconnect)
        #expect(!WSCloseCode.policyViolation.shouldReconnect && !WSCloseCode.normal.shouldReconnect)
        #expect(WSCloseCode(rawValue: 4000) == nil)
    }
}
