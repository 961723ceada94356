import BooksTrackContract
import Foundation
import NIOHTTP1
import Testing

@testable import BooksTrackClient

/// The call pipeline's decisions, without I/O: which reads share a request, which statuses answer
/// a call, and which failures mean the server cannot be reached.
@Suite struct CallRulesTests {
    func spec(_ method: HTTPMethod = .GET, headers: [HeaderField] = []) -> RequestSpec {
        var spec = RequestSpec(method, "/v1/search/isbn", query: [("isbn", "9780441172719")])
        spec.headers = headers
        return spec
    }

    func failure(_ kind: BooksTrackError.Kind, message: String = "Failed.", status: Int? = nil) -> BooksTrackError {
        BooksTrackError(code: "X", kind: kind, message: message, httpStatus: status)
    }

    @Test func identicalReadsShareAKeyAndAnyDifferenceSeparatesThem() {
        let url = "https://books.example/v1/search/isbn?isbn=9780441172719"
        let plain = CallRules.coalescingKey(spec(), url: url)
        #expect(plain == CallRules.coalescingKey(spec(), url: url))
        #expect(plain != CallRules.coalescingKey(spec(), url: url + "0"))
        #expect(plain != CallRules.coalescingKey(spec(.POST), url: url))
        let tagged = CallRules.coalescingKey(spec(headers: [HeaderField(name: "If-None-Match", value: "v1")]), url: url)
        #expect(tagged != plain)
        #expect(tagged.hasSuffix(";If-None-Match=v1"))
    }

    @Test func twoHundredsAnswerAndANotModifiedOnlyAnswersARevalidation() {
        #expect(CallRules.isAnswer(status: 200, to: spec()))
        #expect(CallRules.isAnswer(status: 202, to: spec(.POST)))
        #expect(!CallRules.isAnswer(status: 304, to: spec()))
        #expect(CallRules.isAnswer(status: 304, to: spec(headers: [HeaderField(name: "If-None-Match", value: "v1")])))
        #expect(!CallRules.isAnswer(status: 404, to: spec()))
        #expect(!CallRules.isAnswer(status: 503, to: spec()))
    }

    @Test func onlyAnUnreachableServerIsOffline() {
        let timeout = Duration.seconds(30)
        #expect(CallRules.offlineReason(failure(.timeout), timeout: timeout) == "the request timed out after 30 s")
        #expect(CallRules.offlineReason(failure(.dns), timeout: timeout) == "the server's host name did not resolve")
        #expect(
            CallRules.offlineReason(failure(.connection, message: "Connection refused."), timeout: timeout)
                == "the server could not be reached (connection refused)"
        )
        #expect(
            CallRules.offlineReason(failure(.connection, message: "Connection reset."), timeout: timeout)
                == "the server could not be reached (connection lost)"
        )
        #expect(CallRules.offlineReason(failure(.api, status: 503), timeout: timeout) == nil)
        #expect(CallRules.offlineReason(failure(.timeout, status: 504), timeout: timeout) == nil)
        #expect(CallRules.offlineReason(failure(.tls), timeout: timeout) == nil)
    }
}
