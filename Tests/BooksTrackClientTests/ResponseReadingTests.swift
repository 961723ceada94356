import BooksTrackContract
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import BooksTrackClient

/// A call's outcome read into a response or an error, without a server.
@Suite("ResponseReading")
struct ResponseReadingTests {
    func outcome(_ status: Int, _ body: String, headers: [(String, String)] = []) -> CallOutcome {
        CallOutcome(
            raw: RawResponse(
                status: status,
                headers: HTTPHeaders(headers),
                body: ByteBuffer(string: body),
                url: "http://example.test/v1/search/isbn?isbn=1",
                timeToHead: .milliseconds(3),
                duration: .milliseconds(5)
            ),
            attempts: 2,
            duration: .milliseconds(9)
        )
    }

    let spec: RequestSpec = {
        var spec = RequestSpec(.GET, "/v1/search/isbn")
        spec.notFoundMessage = "Book not found."
        spec.offering = "ISBN lookup"
        return spec
    }()

    func info(_ outcome: CallOutcome) -> ResponseInfo {
        ResponseReading.info(outcome, spec: spec, now: { Date(timeIntervalSince1970: 0) }, deprecationWarning: nil)
    }

    @Test func anEnvelopedBodyDecodes() throws {
        let answer = outcome(200, #"{"success":true,"data":{"n":3},"meta":{"timestamp":"t"}}"#)
        struct Value: Decodable, Sendable { var n: Int }
        let response = try ResponseReading.decode(Value.self, answer, spec: spec, info: info(answer))
        #expect(response.value.n == 3)
        #expect(response.info.status == 200)
        #expect(response.info.attempts == 2)
    }

    @Test func anErrorBodyBecomesTheAPIError() {
        let answer = outcome(200, #"{"success":false,"error":{"code":"NOT_FOUND","message":"No such book"}}"#)
        #expect(throws: BooksTrackError.self) {
            try ResponseReading.decode(JSONValue.self, answer, spec: spec, info: info(answer))
        }
        do {
            _ = try ResponseReading.decode(JSONValue.self, answer, spec: spec, info: info(answer))
        } catch {
            #expect(error.kind == .api)
            #expect(error.attempts == 2)
        }
    }

    @Test func aProxyPageAndAWrongShapeAreSaidApart() {
        let page = outcome(200, "<html><body>Bad gateway</body></html>", headers: [("Content-Type", "text/html")])
        do {
            _ = try ResponseReading.decode(JSONValue.self, page, spec: spec, info: info(page))
            Issue.record("a proxy page decoded")
        } catch {
            #expect(error.code == .invalidResponse)
            #expect(error.message == "The server sent a non-JSON response (HTTP 200 OK).")
        }
        struct Value: Decodable, Sendable { var n: Int }
        let wrong = outcome(200, #"{"m":"x"}"#)
        do {
            _ = try ResponseReading.decode(Value.self, wrong, spec: spec, info: info(wrong))
            Issue.record("a wrong shape decoded")
        } catch {
            #expect(error.code == .invalidResponse)
            #expect(error.kind == .decoding)
            #expect(error.message.hasPrefix("The server's response did not have the expected shape"))
        }
    }

    @Test func headersBecomeFacts() {
        let answer = outcome(
            200,
            "{}",
            headers: [
                ("X-Response-Time", "12ms"), ("X-Cache", "hit from edge"), ("X-Request-ID", "req-1"),
                ("X-RateLimit-Limit", "100"), ("X-RateLimit-Remaining", "99"),
            ]
        )
        let facts = ResponseReading.info(answer, spec: spec, now: { Date() }, deprecationWarning: "said")
        #expect(facts.serverTimeMs == 12)
        #expect(facts.serverCacheHit == true)
        #expect(facts.requestID == "req-1")
        #expect(facts.rateLimit?.remaining == 99)
        #expect(facts.deprecationWarning == "said")
        #expect(facts.lastAttemptDuration == .milliseconds(5))
        #expect(facts.bodyBytes == 2)
        let bare = ResponseReading.info(outcome(200, "{}"), spec: spec, now: { Date() }, deprecationWarning: nil)
        #expect(bare.serverCacheHit == nil)
        #expect(bare.rateLimit == nil)
        #expect(bare.requestID == nil)
    }

    @Test func deprecationHeadersMakeOneSentence() {
        let headers = HTTPHeaders([
            ("Deprecation", "true"), ("Sunset", "Sat, 01 Mar 2025 00:00:00 GMT"), ("Link", "</v3/books>"),
        ])
        #expect(
            ResponseReading.deprecationText(headers, path: "/v1/search/isbn")
                == "/v1/search/isbn is deprecated (Deprecation: true); it will be removed after Sat, 01 Mar 2025 00:00:00 GMT; see </v3/books>."
        )
        #expect(ResponseReading.deprecationText(HTTPHeaders([("Sunset", "x")]), path: "/p") == nil)
    }

    @Test func aMissingRouteSaysWhatItOffers() {
        let error = BooksTrackError(code: .routeNotOffered, kind: .api, message: "Book not found.", httpStatus: 404)
        #expect(
            ResponseReading.notOffered(error, spec: spec).message
                == "This server does not offer ISBN lookup (GET /v1/search/isbn answers 404 \"Endpoint not found\")."
        )
    }
}
