import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import ServerTestSupport
import Testing

@testable import BTSShell

/// `api [METHOD] PATH`: one request to any route, through the session's client, on the embedded
/// backend and on a live server.
@Suite("api")
struct ApiCommandTests {
    @Test func aGETWithFieldsAnswersJSON() async throws {
        try await withShell { harness in
            #expect(await harness.run("api /v1/search/title -f q=dune -f limit=3") == 0, "\(harness.err)")
            let result = await harness.lastResult()
            let works = result["data"]?["works"]?.arrayValue ?? []
            #expect(!works.isEmpty, "\(result)")
            #expect(harness.out.hasPrefix("{"), "\(harness.out.prefix(200))")
            #expect(
                await harness.run("expect ${_http.status} == 200\nexpect ${_http.url} contains q=dune") == 0,
                "\(harness.err)"
            )
        }
    }

    @Test func includeShowsTheStatusLineAndHeaders() async throws {
        try await withShell { harness in
            #expect(await harness.run("api -i /health") == 0, "\(harness.err)")
            #expect(harness.out.hasPrefix("HTTP 200\n"), "\(harness.out)")
            #expect(harness.out.lowercased().contains("content-type: application/json"), "\(harness.out)")
            #expect(harness.out.contains("\n\n{"), "\(harness.out)")
            #expect(await harness.lastResult()["data"]?["status"] == .string("ok"))
        }
    }

    @Test func aPOSTSendsTheFieldsAsAJSONBody() async throws {
        try await withShell { harness in
            #expect(
                await harness.run("api POST /api/v2/books/enrich -f 'isbn=\"9780340839935\"' ") == 0,
                "\(harness.err)"
            )
            let result = await harness.lastResult()
            #expect(result["success"] == .bool(true), "\(result)")
            #expect(await harness.run("expect ${_http.method} == POST") == 0, "\(harness.err)")
        }
    }

    @Test func aMissingRouteFailsWithOneSentence() async throws {
        try await withShell(continueOnError: true) { harness in
            let status = await harness.run("api /v1/no-such-route\nexpect ${_http.status} == 404\necho done")
            #expect(status == 1, "\(harness.err)")
            #expect(harness.err.contains("does not offer GET /v1/no-such-route"), "\(harness.err)")
            #expect(!harness.err.contains("expectation failed"), "\(harness.err)")
            #expect(harness.out.hasSuffix("done\n"), "\(harness.out)")
            // A request the server refuses (HEAD on a GET route) fails too, not as a usage error.
            #expect(await harness.run("api HEAD /health") == 1, "\(harness.err)")
            #expect(await harness.run("expect ${_http.status} == 405") == 0, "\(harness.err)")
        }
    }

    @Test func badWordsAreUsageErrors() async throws {
        try await withShell { harness in
            #expect(await harness.run("api FETCH /health") == 2)
            #expect(harness.err.contains("unknown method 'FETCH'"), "\(harness.err)")
            #expect(await harness.run("api http://example.com/health") == 2)
            #expect(harness.err.contains("PATH must start with /"), "\(harness.err)")
            #expect(await harness.run("api //example.com/health") == 2)
            #expect(await harness.run("api POST /api/v2/books/enrich -f isbn=1 --input body.json") == 2)
            #expect(harness.err.contains("--input and -f cannot be used together"), "\(harness.err)")
            #expect(await harness.run("api /health -H 'no colon'") == 2)
            #expect(harness.err.contains("takes 'Name: value'"), "\(harness.err)")
            #expect(await harness.run("api /health -H 'bad name: x'") == 2)
            #expect(harness.err.contains("is not a header"), "\(harness.err)")
            #expect(await harness.run("api /health --bogus") == 2)
            #expect(harness.err.contains("unknown option '--bogus'"), "\(harness.err)")
        }
    }

    @Test func fieldsKeepJSONTypesInABody() {
        #expect(ApiCommand.typed("3") == .number(3))
        #expect(ApiCommand.typed("-2.5") == .number(-2.5))
        #expect(ApiCommand.typed("true") == .bool(true))
        #expect(ApiCommand.typed("null") == .null)
        #expect(ApiCommand.typed("9780340839935") == .number(9_780_340_839_935))
        #expect(ApiCommand.typed("dune") == .string("dune"))
        #expect(ApiCommand.typed("1e") == .string("1e"))
        #expect(ApiCommand.typed("\"9780340839935\"") == .string("9780340839935"))
    }

    /// A live server on port 0: a request header arrives, the answer's header and body come back,
    /// and --input sends a file as the body.
    @Test func headersAndBodiesMakeTheRoundTripToALiveServer() async throws {
        try await TinyServer.with({ router in
            router.get("/echo") { request, _ in
                let probe = request.headers[HTTPField.Name("X-Probe")!] ?? ""
                var fields = HTTPFields()
                fields[HTTPField.Name("X-Echo")!] = probe
                return Reply.json("{\"probe\":\"\(probe)\"}", headers: fields)
            }
            router.post("/echo") { request, _ in
                let body = try await request.body.collect(upTo: 1 << 16)
                return Reply.json(String(buffer: body))
            }
            router.head("/echo") { _, _ in Response(status: .ok, headers: [HTTPField.Name("X-Echo")!: "head"]) }
            router.get("/plain") { _, _ in Reply.text("plain words", status: .ok, contentType: "text/plain") }
        }) { server in
            try await withShell(backend: BackendRequest(apiURL: server.baseURL.absoluteString)) { harness in
                #expect(await harness.run("api -i /echo -H 'X-Probe: round-trip'") == 0, "\(harness.err)")
                #expect(harness.out.lowercased().contains("x-echo: round-trip"), "\(harness.out)")
                #expect(await harness.lastResult()["probe"] == .string("round-trip"))
                #expect(await harness.run("expect ${_http.headers.x-echo} == round-trip") == 0, "\(harness.err)")

                #expect(await harness.run("api POST /echo -f n=3 -f name=dune -f ok=true") == 0, "\(harness.err)")
                let posted = await harness.lastResult()
                #expect(
                    posted["n"] == .number(3) && posted["name"] == .string("dune") && posted["ok"] == .bool(true),
                    "\(posted)"
                )

                let file = harness.directory.appendingPathComponent("body.json")
                try Data("[1,2]".utf8).write(to: file)
                #expect(await harness.run("api POST /echo --input \(file.path)") == 0, "\(harness.err)")
                #expect(await harness.lastResult() == .array([.number(1), .number(2)]))
                #expect(await harness.run("api POST /echo --input \(harness.directory.path)") == 1)
                #expect(harness.err.contains("cannot send it as the body (not a regular file)"), "\(harness.err)")

                var before = harness.out.count
                #expect(await harness.run("api -i HEAD /echo") == 0, "\(harness.err)")
                let head = String(harness.out.dropFirst(before))
                #expect(
                    head.hasPrefix("HTTP 200\n") && head.lowercased().contains("x-echo: head")
                        && head.hasSuffix("\n\n"),
                    "\(head)"
                )
                #expect(await harness.run("expect ${_http.method} == HEAD") == 0, "\(harness.err)")

                before = harness.out.count
                #expect(await harness.run("api /plain") == 0, "\(harness.err)")
                #expect(String(harness.out.dropFirst(before)) == "plain words\n")
            }
        }
    }
}
