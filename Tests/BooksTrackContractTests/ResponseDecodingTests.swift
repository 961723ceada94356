import BooksTrackContract
import BooksTrackSupport
import Foundation
import TestSupport
import Testing

/// Shapes of `ResponseDecoding` not covered by recorded fixtures, and a no-crash fuzz.
@Suite(.onWorkThreads) struct ResponseDecodingTests {
    func decode<T: Decodable & Sendable>(_ type: T.Type, _ text: String, status: Int = 200) -> DecodedResponse<T> {
        ResponseDecoding.decode(type, from: Data(text.utf8), status: status)
    }

    @Test func standInSuccessEnvelope() throws {
        let env = Envelope.success(
            BookSearchResponse.empty,
            metadata: ResponseMetadata(timestamp: "t", processingTime: 3)
        )
        let result = ResponseDecoding.decode(
            BookSearchResponse.self,
            from: try JSONCoding.encoder().encode(env),
            status: 200
        )
        #expect(result.value == .empty)
        #expect(result.metadata?.processingTime == 3)
    }

    @Test func standInFailureEnvelopeWithTopLevelProvider() throws {
        let env = FailureEnvelope.failure(
            APIErrorBody(code: .circuitOpen, message: "down", retryAfterMs: 1500, provider: "isbndb"),
            metadata: ResponseMetadata(timestamp: "t")
        )
        let result = ResponseDecoding.decode(EnrichedBook.self, from: try JSONCoding.encoder().encode(env), status: 503)
        let info = try #require(result.errorInfo)
        #expect(info.code == .circuitOpen && info.provider == "isbndb" && info.retryAfterMs == 1500 && info.retryable)
        #expect(info.retryAfterSeconds == 2)
        #expect(info.userMessage == "ISBNdb is temporarily unavailable. Retrying in 2 seconds…")
    }

    @Test func nullDataOnSuccess() {
        let body = #"{"success":true,"data":null,"metadata":{"timestamp":"t"}}"#
        #expect(decode(JSONValue.self, body) == .success(.null, metadata: ResponseMetadata(timestamp: "t")))
        let optional = decode(Optional<BookSearchResponse>.self, body)
        #expect(optional == .success(nil, metadata: ResponseMetadata(timestamp: "t")))
        guard case .undecodable(_, let failure, _) = decode(BookSearchResponse.self, body) else {
            Issue.record("null data for a required payload must be undecodable")
            return
        }
        #expect(failure.codingPath.hasPrefix("data"))
    }

    @Test func errorObjectTakesPrecedenceEvenOn200() {
        let result = decode(
            [String: Int].self,
            #"{"data":null,"metadata":{"timestamp":"t"},"error":{"code":"INTERNAL_ERROR","message":"x"}}"#
        )
        #expect(result.errorInfo?.code == .internalError)
        #expect(result.errorInfo?.retryable == true)
    }

    @Test func errorStatusWithoutErrorObject() {
        let plain = decode([String: Int].self, #"{"message":"Not Found"}"#, status: 404)
        #expect(plain.errorInfo?.code == .notFound)
        #expect(plain.errorInfo?.message == "Not Found")
        let coded = decode(
            [String: Int].self,
            #"{"code":"FEATURE_NOT_AVAILABLE","message":"semantic search is off"}"#,
            status: 503
        )
        #expect(coded.errorInfo?.code == .featureNotAvailable)
        #expect(coded.errorInfo?.retryable == false)
        let envelope = decode(
            [String: Int].self,
            #"{"success":false,"data":null,"metadata":{"timestamp":"t"}}"#,
            status: 500
        )
        #expect(envelope.errorInfo?.code == .internalError)
        let text = decode([String: Int].self, #""Too many requests""#, status: 429)
        #expect(text.errorInfo?.code == .rateLimitExceeded && text.errorInfo?.message == "Too many requests")
    }

    @Test func retryAfterInSecondsInsideDetails() {
        let result = decode(
            [String: Int].self,
            #"{"success":false,"data":null,"metadata":{"timestamp":"t"},"error":{"code":"RATE_LIMIT_EXCEEDED","message":"slow down","retryable":true,"details":{"retryAfter":2.5}}}"#,
            status: 429
        )
        #expect(result.errorInfo?.retryAfterMs == 2500)
    }

    @Test func bareBodyOnSuccess() {
        let result = decode(
            CapabilitiesResponse.self,
            #"{"features":{"semantic_search":false},"limits":{"semantic_search_rpm":1,"text_search_rpm":2,"csv_max_rows":3,"max_batch_size":4},"version":"v"}"#
        )
        #expect(result.value?.limits.maxBatchSize == 4)
        #expect(result.metadata == nil)
    }

    @Test func wrongShapeKeepsTheCodingPath() throws {
        let result = decode(
            BookSearchResponse.self,
            #"{"success":true,"data":{"works":[{"subjectTags":[]}]},"metadata":{"timestamp":"t"}}"#
        )
        guard case .undecodable(let status, let failure, _) = result else {
            Issue.record("expected undecodable, got \(result)")
            return
        }
        #expect(status == 200)
        #expect(failure.codingPath == "data.works[0].title")
        #expect(failure.reason.contains("title"))
        #expect(result.errorInfo?.code == .invalidResponse)
        #expect(result.errorInfo?.retryable == false)
        #expect(result.errorInfo?.message.contains("data.works[0].title") == true)

        let bare = decode(
            SimilarBooksResponse.self,
            #"{"results":[{"isbn":"1","title":"t","authors":[],"similarity_score":"high"}],"source_isbn":"x","total":1}"#
        )
        guard case .undecodable(_, let f2, _) = bare else {
            Issue.record("expected undecodable, got \(bare)")
            return
        }
        #expect(f2.codingPath == "results[0].similarity_score")
    }

    @Test func nonJSONOnSuccessStatus() {
        let result = decode([String: Int].self, "OK", status: 200)
        guard case .notJSON(200, "OK") = result else {
            Issue.record("expected notJSON, got \(result)")
            return
        }
        #expect(result.errorInfo?.code == .invalidResponse)
    }

    @Test func snippetIsBounded() {
        let long = String(repeating: "x ", count: 1000)
        let snippet = ResponseDecoding.snippet(of: Data(long.utf8))
        #expect(snippet.count == 201 && snippet.hasSuffix("…"))
        #expect(
            ResponseDecoding.snippet(of: Data("<html><TITLE>\n 504 Gateway Time-out\n</TITLE>".utf8))
                == "504 Gateway Time-out"
        )
    }

    @Test func authorNameShapes() throws {
        let d = JSONCoding.decoder()
        let hit = try d.decode(SearchHit.self, from: Data(#"{"title":"t","authors":"Smith, John","score":0.5}"#.utf8))
        #expect(hit.authors == ["Smith, John"])
        let book = try d.decode(
            Book.self,
            from: Data(#"{"isbn13":"9780306406157","title":"t","authors":[{"name":"X"},"Y",3]}"#.utf8)
        )
        #expect(book.authors == ["X", "Y"])
        #expect(book.isbn == "9780306406157")  // isbn13 stands in for a missing isbn
        #expect(throws: DecodingError.self) {
            try d.decode(SearchHit.self, from: Data(#"{"title":"t","authors":{"a":1},"score":0.5}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try d.decode(Book.self, from: Data(#"{"title":"no isbn","authors":[]}"#.utf8))
        }
    }

    @Test func searchResultsAuthorAttribution() {
        let w1 = WorkDTO(title: "A")
        let w2 = WorkDTO(title: "B")
        let aligned = SearchResults(
            BookSearchResponse(works: [w1, w2], editions: [], authors: [AuthorDTO(name: "X"), AuthorDTO(name: "Y")])
        )
        #expect(aligned.items.map(\.authors) == [["X"], ["Y"]])
        let single = SearchResults(
            BookSearchResponse(works: [w1], editions: [], authors: [AuthorDTO(name: "X"), AuthorDTO(name: "Y")])
        )
        #expect(single.items.map(\.authors) == [["X", "Y"]])
        // Production's top-level list holds each author once: one name for several works is theirs.
        let shared = SearchResults(BookSearchResponse(works: [w1, w2], editions: [], authors: [AuthorDTO(name: "X")]))
        #expect(shared.items.map(\.authors) == [["X"], ["X"]])
        // Several names that cannot be matched to works: none is guessed.
        let unknown = SearchResults(
            BookSearchResponse(
                works: [w1, w2],
                editions: [],
                authors: [AuthorDTO(name: "X"), AuthorDTO(name: "Y"), AuthorDTO(name: "Z")]
            )
        )
        #expect(unknown.items.map(\.authors) == [[], []])
        // A work naming its own authors wins over any list.
        let own = SearchResults(
            BookSearchResponse(
                works: [WorkDTO(title: "A", authors: ["P", "Q"]), w2],
                editions: [],
                authors: [AuthorDTO(name: "X")]
            )
        )
        #expect(own.items.map(\.authors) == [["P", "Q"], ["X"]])
    }

    @Test func jobStateAliases() throws {
        #expect(JobState(lenient: "progress") == .processing)
        #expect(JobState(lenient: "cancelled") == .canceled)
        #expect(JobState(lenient: "QUEUED") == .initialized)
        #expect(JobState(lenient: "exploded") == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([JobState].self, from: Data(#"["exploded"]"#.utf8))
        }
        #expect(JobState.allCases.filter(\.isTerminal) == [.completed, .failed, .canceled])
    }

    @Test func streamEventEdgeCases() {
        guard case .unknown("mystery", _, nil) = JobStreamEvent.decode(eventName: "mystery", data: "{}") else {
            Issue.record("unknown event name should be .unknown")
            return
        }
        guard
            case .unknown("processing", _, let failure?) = JobStreamEvent.decode(
                eventName: "processing",
                data: "not json"
            )
        else {
            Issue.record("bad data should be .unknown with a failure")
            return
        }
        #expect(!failure.description.isEmpty)
        // A default `message` event carrying a status.
        let message = JobStreamEvent.decode(
            eventName: nil,
            data: #"{"jobId":"j","status":"processing","progress":0.1,"processedCount":1,"totalCount":10}"#
        )
        #expect(
            message
                == .state(
                    JobEventPayload(jobId: "j", status: .processing, progress: 0.1, processedCount: 1, totalCount: 10)
                )
        )
        // `failed` with a bare error string.
        guard case .state(let p) = JobStreamEvent.decode(eventName: "failed", data: #"{"jobId":"j","error":"boom"}"#)
        else {
            Issue.record("failed with string error should decode")
            return
        }
        #expect(p.status == .failed && p.error == JobError(code: .unknownError, message: "boom"))
    }

    /// Seeded fuzz: random bytes, truncated and mutated real bodies never crash and always land in
    /// exactly one case with an error description for every non-success.
    @Test func fuzzNeverCrashes() throws {
        var rng = SplitMix64(seed: 0x5EED_F00D)
        let seeds = try [
            "search-title-production.json", "error-rate-limiter-429.json", "capabilities-production.json",
            "similar-production-bare.json", "proxy-502.html", "ws-production-messages.json",
        ].map { try fixture($0) }
        let statuses = [200, 202, 400, 404, 429, 500, 502, 503, 504]
        for i in 0..<3_000 {
            var body: Data
            switch i % 3 {
            case 0:
                body = Data(
                    (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                )
            case 1:
                let seed = seeds[Int.random(in: 0..<seeds.count, using: &rng)]
                body = seed.prefix(Int.random(in: 0...seed.count, using: &rng))
            default:
                body = seeds[Int.random(in: 0..<seeds.count, using: &rng)]
                for _ in 0..<Int.random(in: 1...8, using: &rng) where !body.isEmpty {
                    let idx = body.startIndex + Int.random(in: 0..<body.count, using: &rng)
                    let junk = Array(#"{}[]",:0a"#.utf8)
                    body[idx] = junk[Int.random(in: 0..<junk.count, using: &rng)]
                }
            }
            let status = statuses[Int.random(in: 0..<statuses.count, using: &rng)]
            let results: [APIErrorInfo?] = [
                ResponseDecoding.decode(SearchResults.self, from: body, status: status).errorInfo,
                ResponseDecoding.decode(Capabilities.self, from: body, status: status).errorInfo,
                ResponseDecoding.decode(SimilarResults.self, from: body, status: status).errorInfo,
                ResponseDecoding.decode([WSMessage].self, from: body, status: status).errorInfo,
            ]
            for info in results {
                if let info { #expect(!info.message.isEmpty && info.httpStatus == status) }
            }
            if !(200..<300).contains(status) {
                #expect(ResponseDecoding.decode(SearchResults.self, from: body, status: status).value == nil)
            }
        }
    }
}
