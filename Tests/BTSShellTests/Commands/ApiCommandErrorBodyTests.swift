import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@testable import BTSShell

/// A status other than 2xx: `api` fails (exit 1) with one sentence on stderr, and `$_` becomes
/// the failure with the server's answer beside it, on the embedded backend and on a live server.
@Suite("api: error answers")
struct ApiCommandErrorBodyTests {
    /// Each failing request after a good one: `$_` is replaced, its `error` is the shell's record
    /// and its `body` what the server sent.
    static let script = """
        api /health
        api /v1/no-such-route
        expect ${_.error.code} == ROUTE_NOT_OFFERED
        expect ${_.error.status} == 1
        expect ${_.body.error.code} == NOT_FOUND
        expect ${_.body.success} == false
        api /v1/search/isbn -f isbn=123
        expect ${_.error.code} == ${_.body.error.code}
        expect ${_http.status} == 400
        api /v3/books/123
        expect ${_.body.status} == 400
        echo done
        """

    static func check(_ harness: ShellHarness) async {
        let status = await harness.run(Self.script)
        #expect(status == 1, "\(harness.err)")
        #expect(harness.out.hasSuffix("done\n"), "\(harness.out)\n\(harness.err)")
        #expect(!harness.err.contains("expectation failed"), "\(harness.err)")
        // One sentence per failed request, each on a line of its own.
        let errors = harness.err.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 3, "\(harness.err)")
        #expect(harness.err.contains("does not offer GET /v1/no-such-route"), "\(harness.err)")
        let result = await harness.lastResult()
        #expect(result["data"] == nil, "the health answer is gone: \(result)")
        #expect(result["error"]?["code"] != nil && result["body"]?["status"] == .number(400), "\(result)")
    }

    @Test func theEmbeddedBackendKeepsTheErrorBody() async throws {
        try await withShell(continueOnError: true) { harness in await Self.check(harness) }
    }

    @Test func aLiveServerKeepsTheErrorBody() async throws {
        try await LiveServer.running { server in
            try await withShell(backend: BackendRequest(apiURL: server.baseURL.absoluteString), continueOnError: true) {
                harness in
                await Self.check(harness)
            }
        }
    }

    /// An answer that is not JSON is kept as its text; an empty one leaves `body` out.
    @Test func aBodyThatIsNotJSONIsKeptAsText() {
        #expect(ApiCommand.answerValue(Data("<html>bad gateway</html>".utf8)) == .string("<html>bad gateway</html>"))
        #expect(ApiCommand.answerValue(Data("{\"error\":{\"code\":\"X\"}}".utf8))?["error"]?["code"] == .string("X"))
        #expect(ApiCommand.answerValue(Data()) == nil)
    }
}
