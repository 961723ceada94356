import BooksTrackContract
import Foundation
import Testing

@Suite struct JSONValueTests {
    @Test func decodesEveryKindAndRoundTrips() throws {
        let text = #"{"a":null,"b":true,"c":3,"d":2.5,"e":"x","f":[1,"y"],"g":{"h":false}}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value["a"] == .null)
        #expect(value["b"] == .bool(true))
        #expect(value["c"]?.intValue == 3)
        #expect(value["d"]?.doubleValue == 2.5)
        #expect(value["e"]?.stringValue == "x")
        #expect(value["f"] == [1, "y"])
        #expect(value["g"]?["h"]?.boolValue == false)
        #expect(try encodedString(value) == text)
    }

    @Test func integralNumbersEncodeWithoutFraction() throws {
        #expect(try encodedString(JSONValue.number(42)) == "42")
        #expect(try encodedString(JSONValue.number(0.5)) == "0.5")
        #expect(try encodedString(JSONValue.number(.nan)) == "null")
    }
}

@Suite struct ErrorCodeTests {
    @Test func everyDocumentedCodeHasStatusAndRetryability() {
        let expected: [ErrorCode: (Int?, Bool)] = [
            .missingParameter: (400, false), .invalidRequest: (400, false), .invalidISBN: (400, false),
            .invalidQuery: (400, false), .fileTooLarge: (413, false), .emptyBatch: (400, false),
            .batchTooLarge: (400, false), .unauthorized: (401, false), .notFound: (404, false),
            .rateLimitExceeded: (429, true), .circuitOpen: (503, true), .featureNotAvailable: (503, false),
            .providerError: (502, true), .providerTimeout: (504, true), .apiError: (502, true),
            .networkError: (504, true), .internalError: (500, true), .invalidAcceptHeader: (400, false),
            .csvProcessingFailed: (nil, false), .batchProcessingFailed: (nil, false), .unknownError: (nil, false),
        ]
        #expect(Set(ErrorCode.documented) == Set(expected.keys))
        for (code, (status, retryable)) in expected {
            #expect(code.httpStatus == status, "\(code)")
            #expect(code.defaultRetryable == retryable, "\(code)")
            #expect(code.isKnown)
        }
    }

    @Test func unknownCodesDecodeAndRoundTrip() throws {
        let decoded = try JSONDecoder().decode([ErrorCode].self, from: Data(#"["NOT_FOUND","QUOTA_EXCEEDED"]"#.utf8))
        #expect(decoded == [.notFound, ErrorCode("QUOTA_EXCEEDED")])
        #expect(!decoded[1].isKnown)
        #expect(decoded[1].httpStatus == nil)
        #expect(!decoded[1].defaultRetryable)
        #expect(try encodedString(decoded) == #"["NOT_FOUND","QUOTA_EXCEEDED"]"#)
    }

    @Test func mobileWording() {
        #expect(
            ErrorCode.circuitOpen.userMessage(provider: "google_books", retryAfterSeconds: 42)
                == "Google Books is temporarily unavailable. Retrying in 42 seconds…"
        )
        #expect(
            ErrorCode.circuitOpen.userMessage(provider: "Frobnicator", retryAfterSeconds: 1)
                == "Frobnicator is temporarily unavailable. Retrying in 1 second…"
        )
        // Unnamed, the provider is still the subject of a sentence.
        #expect(
            ErrorCode.circuitOpen.userMessage() == "The book provider is temporarily unavailable. Retrying shortly…"
        )
        #expect(
            ErrorCode.circuitOpen.userMessage(retryAfterSeconds: 5)
                == "The book provider is temporarily unavailable. Retrying in 5 seconds…"
        )
        #expect(
            ErrorCode.rateLimitExceeded.userMessage(retryAfterSeconds: 30)
                == "Too many requests. Please wait 30 seconds."
        )
        #expect(ErrorCode.rateLimitExceeded.userMessage() == "Too many requests. Please wait a moment.")
        #expect(ErrorCode.networkError.userMessage() == "Connection lost. Retrying…")
        #expect(ErrorCode.notFound.userMessage() == "Book not found. Try a different search.")
        #expect(ErrorCode.invalidISBN.userMessage() == "ISBN format is incorrect (use ISBN-10 or ISBN-13)")
        for code in ErrorCode.documented { #expect(!code.userMessage().isEmpty) }
        #expect(ErrorCode("WHATEVER").userMessage().contains("WHATEVER"))
    }

    @Test func statusFallbacks() {
        #expect(ErrorCode(httpStatus: 404) == .notFound)
        #expect(ErrorCode(httpStatus: 429) == .rateLimitExceeded)
        #expect(ErrorCode(httpStatus: 502) == .apiError)
        #expect(ErrorCode(httpStatus: 503) == .serviceUnavailable)
        #expect(ErrorCode(httpStatus: 504) == .networkError)
        #expect(ErrorCode(httpStatus: 500) == .internalError)
        #expect(ErrorCode(httpStatus: 418) == .invalidRequest)
    }
}

@Suite struct EnvelopeTests {
    let metadata = ResponseMetadata(timestamp: "2026-01-05T10:00:00.000Z")

    @Test func successOmitsErrorAndOptionalMetadata() throws {
        let env = Envelope.success(["a": 1], metadata: metadata)
        let obj = try encodedObject(env)
        #expect(Set(obj.keys) == ["success", "data", "metadata"])
        #expect(obj["success"] == .bool(true))
        #expect(obj["metadata"] == ["timestamp": "2026-01-05T10:00:00.000Z"])
    }

    @Test func failureEmitsExplicitNullData() throws {
        let error = APIErrorBody(code: .notFound, message: "No book with ISBN 9780306406157")
        let env = FailureEnvelope.failure(error, metadata: metadata)
        let text = try encodedString(env)
        #expect(text.contains(#""data":null"#))
        #expect(!text.contains("retryAfterMs") && !text.contains("provider") && !text.contains("details"))
        let obj = try encodedObject(env)
        #expect(Set(obj.keys) == ["success", "data", "metadata", "error"])
        #expect(
            obj["error"] == ["code": "NOT_FOUND", "message": "No book with ISBN 9780306406157", "retryable": false]
        )
        #expect(try roundTrip(env) == env)
    }

    @Test func fullErrorAndMetadataKeys() throws {
        let error = APIErrorBody(
            code: .circuitOpen,
            message: "Google Books is down",
            retryAfterMs: 30_000,
            provider: "google_books",
            details: ["failures": 5]
        )
        #expect(error.retryable)
        let meta = ResponseMetadata(
            timestamp: "t",
            processingTime: 12,
            provider: "catalog",
            cached: true,
            source: "local",
            searchMode: .semantic
        )
        let obj = try encodedObject(FailureEnvelope.failure(error, metadata: meta))
        #expect(
            obj["error"]?.objectValue.map { Set($0.keys) } == [
                "code", "message", "retryable", "retryAfterMs", "provider", "details",
            ]
        )
        #expect(
            obj["metadata"] == [
                "timestamp": "t", "processingTime": 12, "provider": "catalog", "cached": true, "source": "local",
                "searchMode": "semantic",
            ]
        )
    }

    @Test func metadataTimestampIsISO8601WithMilliseconds() throws {
        let date = Date(timeIntervalSince1970: 1_767_607_200.125)
        let meta = ResponseMetadata(date: date)
        #expect(meta.timestamp == "2026-01-05T10:00:00.125Z")
        let parsed = try #require(meta.date)
        #expect(abs(parsed.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.001)
        #expect(ISO8601.date(from: "2026-01-05T10:00:00Z") != nil)
        #expect(ISO8601.date(from: "2026-01-05") != nil)
        #expect(ISO8601.date(from: "yesterday") == nil)
        #expect(ISO8601.dayString(from: date) == "2026-01-05")
    }

    @Test func strictDecodeOfStandInEnvelope() throws {
        let text = #"{"success":true,"data":{"x":1},"metadata":{"timestamp":"t","searchMode":"psychic"}}"#
        let env = try JSONCoding.decoder().decode(Envelope<[String: Int]>.self, from: Data(text.utf8))
        #expect(env.data == ["x": 1])
        #expect(env.metadata.searchMode == nil)  // unknown mode dropped, not an error
    }
}

@Suite struct BudgetClassTests {
    /// Each class hashes as itself (by its case, not its name).
    @Test func eachClassHashesApart() {
        #expect(Set(BudgetClass.allCases.map(\.hashValue)).count == BudgetClass.allCases.count)
        #expect(BudgetClass.search.hashValue == BudgetClass(rawValue: "search")?.hashValue)
        #expect(BudgetClass.allCases.map(\.ordinal) == Array(BudgetClass.allCases.indices))
    }

    @Test func documentedDefaults() {
        let expected: [BudgetClass: (Int, Int)] = [
            .search: (100, 60), .semantic: (5, 60), .similar: (10, 60), .enrich: (5, 60), .batch: (10, 60),
            .import: (5, 60), .scan: (5, 60), .jobs: (30, 60), .global: (1000, 3600),
        ]
        #expect(BudgetClass.allCases.count == expected.count)
        for (c, (limit, window)) in expected {
            #expect(c.defaultBudget == Budget(limit: limit, windowSeconds: window), "\(c)")
        }
    }

    @Test func classifiesRoutes() {
        #expect(BudgetClass.classify(method: "GET", path: "/v1/search/isbn") == .search)
        #expect(BudgetClass.classify(method: "GET", path: "/v1/search/advanced?title=x") == .search)
        #expect(BudgetClass.classify(method: "GET", path: "/api/v2/search", mode: "text") == .search)
        #expect(BudgetClass.classify(method: "GET", path: "/api/v2/search") == .search)
        #expect(BudgetClass.classify(method: "GET", path: "/api/v2/search", mode: "semantic") == .semantic)
        #expect(BudgetClass.classify(method: "GET", path: "/api/v2/search", mode: "hybrid") == .semantic)
        #expect(BudgetClass.classify(method: "GET", path: "/api/v2/search", mode: "similar") == .similar)
        #expect(
            BudgetClass.classify(method: "GET", path: "/api/v2/search", mode: "text", query: "similar:9780306406157")
                == .similar
        )
        #expect(BudgetClass.classify(method: "GET", path: "/v1/search/similar") == .similar)
        #expect(BudgetClass.classify(method: "POST", path: "/api/v2/books/enrich") == .enrich)
        #expect(BudgetClass.classify(method: "POST", path: "/api/batch-enrich") == .batch)
        #expect(BudgetClass.classify(method: "POST", path: "/v1/enrichment/batch") == .batch)
        #expect(BudgetClass.classify(method: "POST", path: "/api/v2/imports") == .import)
        #expect(BudgetClass.classify(method: "GET", path: "/api/v2/imports/abc") == .jobs)
        #expect(BudgetClass.classify(method: "GET", path: "/api/v2/imports/abc/results") == .jobs)
        #expect(BudgetClass.classify(method: "GET", path: "/api/v2/imports/abc/stream") == nil)
        #expect(BudgetClass.classify(method: "DELETE", path: "/v1/jobs/abc") == .jobs)
        #expect(BudgetClass.classify(method: "DELETE", path: "/api/v2/jobs/abc/cancel") == .jobs)
        #expect(BudgetClass.classify(method: "GET", path: "/api/v2/capabilities") == nil)
    }
}
