import BooksTrackClient
import BooksTrackContract
import Foundation
import TestSupport
import Testing

/// Answers that are HTTP but wrong are named as an invalid answer from the server (exit 1), never
/// "unreachable", "not HTTP" or a proxy's fault (exit 3), and never answered from a cache as if
/// offline; a UTF-8 ETag goes back as it came; credentials in the server's URL are sent as Basic
/// authentication; a server URL with a query is refused.
@Suite("Invalid answers")
struct InvalidAnswerTests {
    static let isbn = "9780441172719"

    /// The error a title search ends with, against a client that does not retry or wait.
    func failure(_ url: URL) async -> BooksTrackError? {
        let api = makeAPI(url) { config in
            config.retryPolicy = .never
            config.connectTimeout = Duration.seconds(60).scaled
            config.timeout = Duration.seconds(90).scaled
        }
        defer { Task { await api.shutdown() } }
        do {
            _ = try await api.searchTitle("dune")
            return nil
        } catch {
            return error
        }
    }

    static func head(_ lines: [String], body: String = "") -> HostileServer.Behaviour {
        .raw(
            Array(
                (lines.joined(separator: "\r\n") + "\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
                    + body).utf8
            )
        )
    }

    @Test(arguments: ["X-Evil: a\u{01}b", "X-Evil: a\u{1B}[2Jb", "X\u{7F}Evil: b"])
    func aHeaderWithAControlCharacterIsAnInvalidAnswer(_ header: String) async throws {
        try await HostileServer.with({ _ in
            Self.head(["HTTP/1.1 200 OK", "Content-Type: application/json", header], body: "{}")
        }) { server in
            let caught = try #require(await failure(server.baseURL))
            #expect(
                caught.message
                    == "127.0.0.1 sent an invalid answer: a response header held a character HTTP does not allow.",
                "\(caught.message) \(caught.detail)"
            )
            #expect(caught.category == .api)
            #expect(caught.code == .invalidResponse)
            #expect(!caught.message.contains("\u{1B}"))
            #expect(caught.attempts == 1)
        }
    }

    @Test func anUnsolicited304IsAnInvalidAnswer() async throws {
        try await HostileServer.with({ _ in Self.head(["HTTP/1.1 304 Not Modified", "ETag: \"x\""]) }) { server in
            let caught = try #require(await failure(server.baseURL))
            #expect(
                caught.message
                    == "The server sent an invalid answer: 304 Not Modified to a request that had nothing cached."
            )
            #expect(caught.category == .api)
            #expect(!caught.message.contains("proxy"))
        }
    }

    @Test(arguments: ["200 OK", "500 Internal Server Error"])
    func deeplyNestedJSONIsAnInvalidAnswer(_ status: String) async throws {
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        try await HostileServer.with({ _ in HostileServer.json(nested, status: status) }) { server in
            let caught = try #require(await failure(server.baseURL))
            #expect(
                caught.message.hasPrefix("The server sent an invalid answer: JSON this client cannot read"),
                "\(caught.message)"
            )
            #expect(caught.category == .api)
            #expect(!caught.message.contains("proxy"))
        }
    }

    /// Garbage that never was HTTP keeps its own sentence (another program on the port).
    @Test func notHTTPAtAllIsStillSaidSo() async throws {
        try await HostileServer.with({ _ in .raw(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) }) { server in
            let caught = try #require(await failure(server.baseURL))
            #expect(caught.message == "127.0.0.1 did not answer with HTTP (is it the right address and port?).")
            #expect(caught.category == .network)
        }
    }

    /// A stale answer whose ETag holds UTF-8 is revalidated with the very same bytes, and the 304
    /// serves it (it was sent back as `caf�` and never matched).
    @Test func aUTF8ETagIsSentBackAsItCame() async throws {
        let dir = try TempDir("etag-utf8")
        defer { dir.cleanup() }
        let body = Fixtures.text("search-isbn-envelope-no-success.json")
        let served = SynchronizedBox(0)
        try await HostileServer.with({ head in
            served.mutate { $0 += 1 }
            if head.contains("If-None-Match: \"café\"") {
                return Self.head(["HTTP/1.1 304 Not Modified", "ETag: \"café\"", "Cache-Control: max-age=60"])
            }
            return Self.head(
                ["HTTP/1.1 200 OK", "Content-Type: application/json", "ETag: \"café\"", "Cache-Control: max-age=60"],
                body: body
            )
        }) { server in
            let clock = ManualClock()
            let api = makeAPI(server.baseURL) { config in
                config.retryPolicy = .never
                config.now = clock.closure
                config.dialect = .v1
                config.responseCache = ResponseDiskCache(directory: dir.url, backend: "etag")
            }
            _ = try await api.searchISBN(Self.isbn)
            clock.advance(by: 120)
            let again = try await api.searchISBN(Self.isbn)
            await api.shutdown()
            #expect(again.value.items.isEmpty == false)
            let heads = server.received
            #expect(heads.count == 2)
            #expect(heads.last?.contains("If-None-Match: \"café\"") == true, "\(heads.last ?? "")")
            #expect(await api.statistics.revalidations == 1)
        }
    }

    /// `user:password@` in the server's URL goes out as Basic authentication (it was masked and
    /// never sent); a token wins over it.
    @Test func urlCredentialsAreSentAsBasicAuthentication() async throws {
        let body = Fixtures.text("search-isbn-envelope-no-success.json")
        try await HostileServer.with({ _ in
            Self.head(["HTTP/1.1 200 OK", "Content-Type: application/json"], body: body)
        }) { server in
            let url = try #require(URL(string: "http://al%20ice:s3cr%3At@127.0.0.1:\(server.port)"))
            let api = makeAPI(url) {
                $0.retryPolicy = .never
                $0.dialect = .v1
            }
            _ = try await api.searchISBN(Self.isbn)
            await api.shutdown()
            let expected = "Authorization: Basic " + Data("al ice:s3cr:t".utf8).base64EncodedString()
            #expect(server.received.first?.contains(expected) == true, "\(server.received.first ?? "")")
            #expect(server.received.first?.components(separatedBy: "Authorization:").count == 2)

            let tokened = makeAPI(url) {
                $0.retryPolicy = .never
                $0.dialect = .v1
                $0.bearerToken = "tok"
            }
            _ = try await tokened.searchISBN(Self.isbn)
            await tokened.shutdown()
            #expect(server.received.last?.contains("Authorization: Bearer tok") == true)
            #expect(server.received.last?.contains("Basic") == false)
        }
    }

    @Test(arguments: ["http://127.0.0.1:8787/?api_key=K", "http://127.0.0.1:8787/v1?x=1", "http://127.0.0.1:8787/#top"])
    func aServerURLWithAQueryOrFragmentIsRefused(_ text: String) throws {
        guard case .failure(let problem) = ServerURL.parseServer(text) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(problem.message.contains("a server URL is its scheme, host, port and path only"), "\(problem.message)")
        #expect(!problem.message.contains("api_key=K"))
        #expect(try ServerURL.parseServer("http://127.0.0.1:8787/base").get().path == "/base")
    }
}
