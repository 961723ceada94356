import BooksTrackContract
import BooksTrackSupport
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import BooksTrackClient

@Suite(.onWorkThreads) struct ErrorMappingTests {
    func map(_ status: Int, _ body: String, headers: [(String, String)] = []) -> BooksTrackError {
        BooksTrackError.fromResponse(
            status: status,
            headers: HTTPHeaders(headers),
            body: ByteBuffer(string: body),
            url: "http://x/v1"
        )
    }

    @Test func proxyHTML502IsReportedClearly() {
        let e = map(502, Fixtures.text("proxy-502.html"))
        #expect(e.kind == .proxyPage)
        #expect(
            e.message.contains("the server's proxy returned an HTML error page (502 Bad Gateway)")
                || e.message.contains("proxy returned an HTML error page (502 Bad Gateway)")
        )
        #expect(e.category == .network)
        #expect(e.category == .network)
        #expect(e.retryable)
    }

    @Test func empty503IsANetworkError() {
        let e = map(503, "")
        #expect(e.kind == .proxyPage)
        #expect(e.message.contains("empty response (503 Service Unavailable)"))
    }

    @Test func corsBlockedHeader() {
        let e = map(403, "{}", headers: [("X-Custom-Error", "CORS_BLOCKED")])
        #expect(e.kind == .corsBlocked)
        #expect(e.message.contains("blocked by the server's CORS policy"))
    }

    @Test func rateLimiterBodyGivesWaitAndCategory() {
        let e = map(429, Fixtures.text("error-rate-limiter-429.json"), headers: [("Retry-After", "42")])
        #expect(e.code == .rateLimitExceeded)
        #expect(e.category == .rateLimited)
        #expect(e.category == .rateLimited)
        #expect(e.retryAfter != nil)
        #expect(e.message.hasPrefix("Too many requests. Please wait"))
    }

    @Test func circuitOpenUsesProviderWording() {
        let body =
            #"{"success":false,"data":null,"metadata":{"timestamp":"x"},"error":{"code":"CIRCUIT_OPEN","message":"down","retryable":true,"retryAfterMs":30000,"provider":"google_books"}}"#
        let e = map(503, body)
        #expect(e.code == .circuitOpen)
        #expect(e.message == "Google Books is temporarily unavailable. Retrying in 30 seconds…")
        #expect(e.retryAfter == .seconds(30))
        #expect(e.provider == "google_books")
        #expect(e.retryable)
    }

    @Test func notFoundAndValidationCategories() {
        let nf = map(404, Fixtures.text("error-not-found-no-success.json"))
        #expect(nf.category == .notFound)
        let bad = map(
            400,
            #"{"success":false,"data":null,"metadata":{"timestamp":"x"},"error":{"code":"INVALID_ISBN","message":"bad","retryable":false}}"#
        )
        #expect(bad.message == "ISBN format is incorrect (use ISBN-10 or ISBN-13)")
        #expect(bad.category == .usage)
        #expect(bad.retryableFailure == .http(status: 400, code: "INVALID_ISBN", retryable: false, retryAfter: nil))
    }

    @Test func transportFailuresMapToPlainSentences() {
        let refused = BooksTrackError.fromTransport(
            IOError(errnoCode: ECONNREFUSED, reason: "connect"),
            url: "u",
            host: "h",
            timeout: nil
        )
        // A connection that never opened was not "lost"; errno text stays in `detail` (traces).
        #expect(refused.message == "Cannot connect to h: the connection was refused (is the server running?).")
        #expect(refused.userDetail == nil)
        #expect(refused.endsCallAtOnce)
        #expect(refused.category == .network)
        #expect(refused.retryableFailure == .transport(.cannotConnect))
        let cancelled = BooksTrackError.fromTransport(CancellationError(), url: "u", host: "h", timeout: nil)
        #expect(cancelled.isCancellation)
        #expect(cancelled.category == .cancelled)
    }

    /// Seeded random bodies and statuses: mapping never crashes and always yields a message.
    @Test func fuzzNeverCrashes() {
        var rng = SplitMix64(seed: 42)
        let pieces = [
            "{", "}", "\"error\"", ":", "\"code\"", "null", "[", "]", "<html>", "\"data\"", ",", "1e999", "\"success\"",
            "true", "\u{0}", "é",
        ]
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...20, using: &rng) { text += pieces.randomElement(using: &rng) ?? "" }
            let status = [200, 400, 404, 429, 500, 502, 503, 504, 302].randomElement(using: &rng) ?? 500
            let e = map(status, text)
            #expect(!e.message.isEmpty)
        }
    }
}

@Suite(.onWorkThreads) struct SecretMaskingTests {
    @Test func masksEveryKnownSecret() {
        let body = #"{"jobId":"j1","authToken":"SECRET1","token":"SECRET2","nested":{"oldToken":"SECRET3"}}"#
        let masked = SecretMasking.maskText(body)
        #expect(!masked.contains("SECRET"))
        #expect(masked.contains(#""jobId":"j1""#))
        #expect(
            SecretMasking.maskURL("https://user:pw@api.x/ws?jobId=1&token=SECRET4")
                == "https://***@api.x/ws?jobId=1&token=***"
        )
        #expect(SecretMasking.maskHeader(name: "Authorization", value: "Bearer SECRET5") == "Bearer ***")
        #expect(SecretMasking.maskHeader(name: "PROXY-authorization", value: "Basic SECRET7") == "Basic ***")
        #expect(SecretMasking.maskHeader(name: "set-COOKIE", value: "sid=SECRET8") == "***")
        #expect(SecretMasking.maskHeader(name: "Coo\u{212A}ie", value: "sid=SECRET9") == "***")  // Kelvin sign
        #expect(SecretMasking.maskHeader(name: "X-Api-Keys", value: "plain") == "plain")
        #expect(
            SecretMasking.maskHeader(name: "Sec-WebSocket-Protocol", value: "bookstrack-auth.SECRET6")
                == "bookstrack-auth.***"
        )
        #expect(!SecretMasking.maskText("data: {\"token\": \"SECRET7\"}").contains("SECRET7"))
    }

    /// A response's headers are masked when read, however they were stored or replaced.
    @Test func responseInfoHeadersReadMasked() {
        var info = ResponseInfo(
            method: "GET",
            url: "http://h/x",
            status: 200,
            headers: [
                HeaderField(name: "Set-Cookie", value: "sid=SECRET10"), HeaderField(name: "X-Cache", value: "HIT"),
            ]
        )
        #expect(info.headers.map(\.value) == ["***", "HIT"])
        #expect(info.header("set-cookie") == "***")
        info.headers = [HeaderField(name: "Authorization", value: "Bearer SECRET11")]
        #expect(info.headers.map(\.value) == ["Bearer ***"])
    }

    /// The byte-level pre-check folds ASCII case, finds a marker anywhere (also at the very end) and
    /// lets ordinary header values through untouched.
    @Test func preCheckFindsMarkersInAnyCase() {
        for text in ["x-TOKEN", "Bearer abc", "BOOKSTRACK-AUTH.x", "PassWord=1", "ApiKey", "API_KEY", "a@b", "…token"] {
            #expect(SecretMasking.mightContainSecret(text), "\(text)")
        }
        for text in ["", "application/json; charset=utf-8", "12ms", "toke", "api-key", "bearé"] {
            #expect(!SecretMasking.mightContainSecret(text), "\(text)")
        }
        #expect(SecretMasking.maskText("GET /ws?TOKEN=SECRET8") == "GET /ws?TOKEN=***")
    }
}
