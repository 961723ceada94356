import AsyncHTTPClient
import BooksTrackContract
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Synchronization
import Testing

@testable import BooksTrackClient

/// Plain-HTTP GETs over the client's own kept-alive connections (`KeepAlivePool`): against a
/// raw-socket server that counts connections, and the handler alone on an embedded channel.
@Suite("Kept-alive connections")
struct KeepAlivePoolTests {
    /// `okSearch` as a keep-alive HTTP/1.1 response (no `Connection: close`).
    static let keptResponse: [UInt8] = Array(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(okSearch.utf8.count)\r\n\r\n\(okSearch)"
            .utf8
    )

    /// Title searches for distinct queries (no cache or coalescing in between), each one's
    /// attempts, or nil with the error recorded; the client is shut down either way.
    static func searches(_ api: BooksTrackAPI, _ queries: [String]) async -> [Int]? {
        var attempts: [Int] = []
        do {
            for query in queries { attempts.append(try await api.searchTitle(query).info.attempts) }
        } catch {
            Issue.record("\(error.message)")
            await api.shutdown()
            return nil
        }
        await api.shutdown()
        return attempts
    }

    /// The error of one title search with a single attempt (the client is shut down).
    static func singleAttemptFailure(_ url: URL) async -> BooksTrackError? {
        let api = makeAPI(url) { $0.retryPolicy.maxAttempts = 1 }
        var caught: BooksTrackError?
        do throws(BooksTrackError) { _ = try await api.searchTitle("dune") } catch { caught = error }
        await api.shutdown()
        return caught
    }

    @Test func sequentialGETsShareOneConnection() async throws {
        try await HostileServer.with({ _ in .keepOpen(Self.keptResponse) }) { server in
            let attempts = await Self.searches(makeAPI(server.baseURL), ["a", "b", "c", "d", "e"])
            #expect(attempts == [1, 1, 1, 1, 1])
            #expect(server.received.count == 5)
            #expect(server.connections == 1)
            #expect(server.received.allSatisfy { $0.hasPrefix("GET /v1/search/title?q=") })
            #expect(server.received.allSatisfy { $0.contains("\r\nHost: 127.0.0.1:\(server.port)\r\n") })
        }
    }

    /// A host name (resolved, Happy Eyeballs between its addresses) keeps its connection too.
    @Test func aHostNameIsResolvedAndItsConnectionKept() async throws {
        try await HostileServer.with({ _ in .keepOpen(Self.keptResponse) }) { server in
            let url = try #require(URL(string: "http://localhost:\(server.port)"))
            let attempts = await Self.searches(makeAPI(url), ["a", "b", "c"])
            #expect(attempts == [1, 1, 1])
            #expect(server.connections == 1)
            #expect(server.received.allSatisfy { $0.contains("\r\nHost: localhost:\(server.port)\r\n") })
        }
    }

    /// Shutting the client down closes its idle connections (nothing is left open on the server).
    @Test func shutdownClosesIdleConnections() async throws {
        try await HostileServer.with({ _ in .keepOpen(Self.keptResponse) }) { server in
            let api = makeAPI(server.baseURL)
            let results = try await withThrowingTaskGroup(of: Int.self) { group in
                // Two at once: usually two connections (one if the first was done before the second
                // began), all idle afterwards.
                for query in ["a", "b"] { group.addTask { try await api.searchTitle(query).info.attempts } }
                return try await group.reduce(0, +)
            }
            #expect(results == 2)
            let opened = server.connections
            #expect((1...2).contains(opened))
            #expect(server.closedByClient == 0)
            await api.shutdown()
            let allClosed = try await eventually(within: .seconds(10)) { server.closedByClient == opened }
            #expect(allClosed)
        }
    }

    /// The server keeps the first connection, then closes it without answering the second
    /// request: the client sends it again on a new connection, unnoticed (one attempt).
    @Test func aKeptConnectionTheServerDroppedIsReplacedUnnoticed() async throws {
        let count = Mutex(0)
        try await HostileServer.with({ _ in
            let n = count.withLock { n in
                n += 1
                return n
            }
            switch n {
            case 1: return .keepOpen(Self.keptResponse)
            case 2: return .close
            default: return .raw(Self.keptResponse)
            }
        }) { server in
            let attempts = await Self.searches(makeAPI(server.baseURL), ["a", "b"])
            #expect(attempts == [1, 1])
            #expect(server.received.count == 3)
            #expect(server.connections == 2)
        }
    }

    /// A new connection closed without a byte of answer is a lost connection, not sent again by
    /// the pool (only the client's retry policy may retry it, as it did before).
    @Test func aNewConnectionClosedAtOnceIsALostConnection() async throws {
        try await HostileServer.with({ _ in .close }) { server in
            let caught = await Self.singleAttemptFailure(server.baseURL)
            #expect(caught?.message == "Connection lost: 127.0.0.1 closed the connection.")
            #expect(server.received.count == 1)
        }
    }

    @Test func aResponseThatClosesTheConnectionIsNotReused() async throws {
        let closing = Array(
            "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: \(okSearch.utf8.count)\r\n\r\n\(okSearch)".utf8
        )
        try await HostileServer.with({ _ in .keepOpen(closing) }) { server in
            let attempts = await Self.searches(makeAPI(server.baseURL), ["a", "b", "c"])
            #expect(attempts == [1, 1, 1])
            #expect(server.connections == 3)
        }
    }

    /// A body cut off by the server after its head is a lost connection (both paths said "did
    /// not answer with HTTP" before), not sent again by the pool.
    @Test(arguments: [false, true])
    func aBodyCutOffIsALostConnection(throughAsyncHTTPClient: Bool) async throws {
        let cut = Array("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{\"success\":".utf8)
        try await HostileServer.with({ _ in .raw(cut) }) { server in
            // Credentials in the URL keep a request off the kept-alive path.
            let url =
                throughAsyncHTTPClient
                ? try #require(URL(string: "http://u:p@127.0.0.1:\(server.port)")) : server.baseURL
            let caught = await Self.singleAttemptFailure(url)
            #expect(caught?.message == "Connection lost: 127.0.0.1 closed the connection.")
            #expect(server.received.count == 1)
        }
    }

    /// A kept connection whose second answer stalls mid-body fails at the request's deadline.
    @Test func aStalledBodyOnAKeptConnectionTimesOut() async throws {
        let count = Mutex(0)
        let stall = Array("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{\"success\":".utf8)
        try await HostileServer.with({ _ in
            count.withLock { n in
                n += 1
                return n
            } == 1 ? .keepOpen(Self.keptResponse) : .keepOpen(stall)
        }) { server in
            let api = makeAPI(server.baseURL) { config in
                config.timeout = .milliseconds(700)
                config.retryPolicy.maxAttempts = 1
            }
            var caught: BooksTrackError?
            do throws(BooksTrackError) {
                _ = try await api.searchTitle("a")
                _ = try await api.searchTitle("b")
            } catch { caught = error }
            await api.shutdown()
            #expect(caught?.kind == .timeout)
            #expect(caught?.message == "The request to 127.0.0.1 timed out after 700 ms.")
            #expect(server.connections == 1)
        }
    }

    @Test func cancellingTheCallerEndsARequestInFlight() async throws {
        try await HostileServer.with({ _ in .silence }) { server in
            let api = makeAPI(server.baseURL) { $0.timeout = .seconds(60) }
            let task = Task { try await api.searchTitle("dune") }
            // In flight: the server has the request (and will never answer it).
            let inFlight = try await eventually { server.received.count == 1 }
            #expect(inFlight)
            task.cancel()
            var caught: (any Error)?
            do { _ = try await task.value } catch { caught = error }
            await api.shutdown()
            #expect((caught as? BooksTrackError)?.kind == .cancelled)
        }
    }

    // MARK: which requests qualify

    /// The pool for a configured server URL, if it qualifies.
    static func pool(_ text: String) -> KeepAlivePool? {
        guard let url = URL(string: text) else { return nil }
        return KeepAlivePool(base: ServerURL.CheckedBase(text), configuration: APIConfiguration(baseURL: url))
    }

    @Test func onlyPlainHTTPOriginsWithoutCredentialsQualify() throws {
        let origin = try #require(Self.pool("http://127.0.0.1:8787")?.origin)
        #expect(
            origin == .init(prefix: "http://127.0.0.1:8787", host: "127.0.0.1", port: 8787, authority: "127.0.0.1:8787")
        )
        #expect(Self.pool("HTTP://Books.example/api/")?.origin.port == 80)
        #expect(Self.pool("HTTP://Books.example/api/")?.origin.prefix == "HTTP://Books.example")
        #expect(Self.pool("http://h:/x")?.origin.port == 80)
        for refused in [
            "https://h", "http://u:p@h:1", "http://u@h", "http://[::1]:80", "http://h:0", "http://h:65536",
            "http://h:1:2", "http://", "http://%68", "ftp://h", "http:/h", "http://h x",
        ] {
            #expect(Self.pool(refused) == nil, "\(refused)")
        }
        let pool = try #require(Self.pool("http://127.0.0.1:9/api/"))
        #expect(pool.target(of: "http://127.0.0.1:9/api/v1/search/isbn?isbn=1") == "/api/v1/search/isbn?isbn=1")
        #expect(pool.target(of: "http://127.0.0.1:90/api/x") == nil)
        #expect(pool.target(of: "http://127.0.0.1:9") == nil)
        #expect(pool.target(of: "https://127.0.0.1:9/x") == nil)
    }

    @Test func headersTheEncoderWouldRefuseGoThroughAsyncHTTPClient() {
        #expect(KeepAlivePool.sendsAsIs(["Authorization": "Bearer abc.def", "Accept": "application/json\t"]))
        #expect(!KeepAlivePool.sendsAsIs(["X-Token": "a\r\nEvil: 1"]))
        #expect(!KeepAlivePool.sendsAsIs(["X-Token": "caf\u{E9}"]))
        #expect(!KeepAlivePool.sendsAsIs(["Bad Name": "1"]))
        #expect(!KeepAlivePool.sendsAsIs(["": "1"]))
    }

    // MARK: the handler alone

    /// A handler on an embedded channel with a request started, and its reply's future.
    static func started(
        limit: Int = 1024,
        deadline: TimeAmount = .seconds(5)
    ) throws -> (EmbeddedChannel, KeepAliveHandler, EventLoopFuture<KeepAliveHandler.Reply>) {
        let handler = KeepAliveHandler()
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let promise = channel.eventLoop.makePromise(of: KeepAliveHandler.Reply.self)
        let request = KeepAliveHandler.Request(
            head: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/x"),
            limit: limit,
            droppedStatuses: [302],
            started: .now,
            deadline: channel.embeddedEventLoop.now + deadline
        )
        handler.start(request, promise: promise)
        return (channel, handler, promise.futureResult)
    }

    static func head(_ status: HTTPResponseStatus, _ headers: HTTPHeaders = [:]) -> HTTPClientResponsePart {
        .head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))
    }

    static func outcome(_ future: EventLoopFuture<KeepAliveHandler.Reply>) -> Result<KeepAliveHandler.Reply, any Error>?
    {
        let box = Mutex<Result<KeepAliveHandler.Reply, any Error>?>(nil)
        future.whenComplete { result in box.withLock { $0 = result } }
        return box.withLock { $0 }
    }

    @Test func aWholeResponseIsCollectedAndKeepsTheConnection() throws {
        let (channel, _, future) = try Self.started()
        #expect(
            try channel.readOutbound(as: HTTPClientRequestPart.self)
                == .head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/x"))
        )
        #expect(try channel.readOutbound(as: HTTPClientRequestPart.self) == .end(nil))
        try channel.writeInbound(Self.head(.ok))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: "{\"a\":")))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: "1}")))
        #expect(Self.outcome(future) == nil)
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
        let reply = try #require(try Self.outcome(future)?.get())
        #expect(reply.collected.head.status == .ok)
        #expect(String(buffer: reply.collected.body) == "{\"a\":1}")
        #expect(reply.keepAlive)
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test func closeBeforeAnyByteIsStaleAndAfterOneIsLost() throws {
        let (first, _, beforeAny) = try Self.started()
        first.pipeline.fireChannelInactive()
        #expect(throws: KeepAliveHandler.Stale.self) { try Self.outcome(beforeAny)?.get() }

        let (second, _, afterHead) = try Self.started()
        try second.writeInbound(Self.head(.ok, ["Content-Length": "10"]))
        second.pipeline.fireChannelInactive()
        #expect(throws: HTTPClientError.remoteConnectionClosed) { try Self.outcome(afterHead)?.get() }
    }

    @Test func bodiesPastTheLimitFailAndCloseTheConnection() throws {
        let (declared, _, declaredFuture) = try Self.started(limit: 8)
        try declared.writeInbound(Self.head(.ok, ["Content-Length": "9"]))
        #expect(throws: ResponseBodyTooLarge.self) { try Self.outcome(declaredFuture)?.get() }
        #expect(!declared.isActive)

        let (streamed, _, streamedFuture) = try Self.started(limit: 8)
        try streamed.writeInbound(Self.head(.ok))
        try streamed.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: "12345")))
        try streamed.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: "6789")))
        #expect(throws: ResponseBodyTooLarge.self) { try Self.outcome(streamedFuture)?.get() }
        #expect(!streamed.isActive)
    }

    @Test func aRedirectsBodyIsDroppedUnbounded() throws {
        let (channel, _, future) = try Self.started(limit: 4)
        try channel.writeInbound(Self.head(.found, ["Content-Length": "100", "Location": "/y"]))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(string: String(repeating: "x", count: 100))))
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
        let reply = try #require(try Self.outcome(future)?.get())
        #expect(reply.collected.head.status == .found)
        #expect(reply.collected.body.readableBytes == 0)
        _ = try channel.finish()
    }

    @Test func theDeadlineFailsTheRequestAndClosesTheConnection() throws {
        let (channel, _, future) = try Self.started(deadline: .seconds(2))
        try channel.writeInbound(Self.head(.ok, ["Content-Length": "10"]))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1_999))
        #expect(Self.outcome(future) == nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(throws: HTTPClientError.deadlineExceeded) { try Self.outcome(future)?.get() }
        #expect(!channel.isActive)
    }

    @Test func connectionCloseAndUnaskedBytesEndTheConnectionsUse() throws {
        let (channel, handler, future) = try Self.started()
        try channel.writeInbound(Self.head(.ok, ["Connection": "close", "Content-Length": "0"]))
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
        #expect(try Self.outcome(future)?.get().keepAlive == false)
        // Nothing more is sent on it.
        let again = channel.eventLoop.makePromise(of: KeepAliveHandler.Reply.self)
        handler.start(
            .init(
                head: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/x"),
                limit: 8,
                droppedStatuses: [],
                started: .now,
                deadline: channel.embeddedEventLoop.now + .seconds(1)
            ),
            promise: again
        )
        #expect(throws: KeepAliveHandler.Stale.self) { try Self.outcome(again.futureResult)?.get() }

        let (idle, _, idleFuture) = try Self.started()
        try idle.writeInbound(Self.head(.ok, ["Content-Length": "0"]))
        try idle.writeInbound(HTTPClientResponsePart.end(nil))
        #expect(try Self.outcome(idleFuture)?.get().keepAlive == true)
        try idle.writeInbound(Self.head(.ok))
        #expect(!idle.isActive)
    }
}
