import BooksTrackClient
import BooksTrackContract
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// A server "in this process": records what it was asked and answers with a canned reply (or
/// sleeps, or refuses an oversized body).
final class FakeResponder: InProcessResponder, Sendable {
    enum Behaviour {
        case answer(Int, String)
        case sleep, tooLarge
    }
    private struct State {
        var seen: [(method: String, target: String, headers: HTTPHeaders, body: String?)] = []
        var socketOpenings = 0
    }
    private let state = Mutex(State())
    let behaviour: Behaviour

    init(_ behaviour: Behaviour) { self.behaviour = behaviour }

    var requests: [(method: String, target: String, headers: HTTPHeaders, body: String?)] {
        state.withLock { $0.seen }
    }

    var socketsOpened: Int { state.withLock { $0.socketOpenings } }

    func openSocket() async throws {
        state.withLock { $0.socketOpenings += 1 }
    }

    func respond(
        method: String,
        target: String,
        headers: HTTPHeaders,
        body: ByteBuffer?,
        bodyLimit: Int
    ) async throws
        -> InProcessResponse
    {
        let text = body.map { String(buffer: $0) }
        state.withLock { $0.seen.append((method, target, headers, text)) }
        switch behaviour {
        case .answer(let status, let text):
            var fields = HTTPHeaders()
            fields.add(name: "Content-Type", value: "application/json")
            fields.add(name: "X-Cache", value: "HIT")
            return InProcessResponse(status: status, headers: fields, body: ByteBuffer(string: text))
        case .sleep:
            try await Task.sleep(for: .seconds(120))
            throw CancellationError()
        case .tooLarge:
            throw InProcessBodyTooLarge()
        }
    }
}

/// The embedded backend's socket-free path: ordinary requests go to the in-process responder with
/// the same headers, deadline and body bound as over a socket; uploads still go to the socket.
@Suite struct InProcessTransportTests {
    /// The base URL is a closed port: anything that went to a socket would fail.
    func api(
        _ responder: FakeResponder,
        timeout: Duration = .seconds(30),
        executor: EventLoopTaskExecutor? = nil,
        trace: (@Sendable (TraceEvent) -> Void)? = nil
    ) -> BooksTrackAPI {
        makeAPI(URL(string: "http://127.0.0.1:\(closedPort())")!) {
            $0.executor = executor
            $0.inProcess = responder
            $0.timeout = timeout
            $0.bearerToken = "SECRET-TOKEN"
            $0.trace = trace
        }
    }

    @Test func ordinaryRequestsNeverTouchTheSocket() async throws {
        let responder = FakeResponder(.answer(200, okSearch))
        let events = SynchronizedBox<[TraceEvent]>([])
        let api = api(responder) { event in events.mutate { $0.append(event) } }
        let response = try await api.searchTitle("dune messiah", limit: 5)
        #expect(responder.socketsOpened == 0)
        #expect(response.info.status == 200)
        #expect(response.info.serverCacheHit == true)
        let request = try #require(responder.requests.first)
        #expect(request.method == "GET")
        #expect(request.target.hasPrefix("/v1/search/title?"))
        #expect(request.target.contains("q=dune%20messiah"))
        #expect(request.headers.first(name: "Authorization") == "Bearer SECRET-TOKEN")
        #expect(request.headers.first(name: "User-Agent") != nil)
        // Traced like a socket request, secrets masked.
        let traced = try #require(events.value.first)
        #expect(traced.status == 200)
        #expect(!traced.requestHeaders.contains { $0.value.contains("SECRET-TOKEN") })
        await api.shutdown()
    }

    @Test func uploadsGoToTheSocket() async throws {
        let responder = FakeResponder(.answer(200, okSearch))
        let api = api(responder)
        let directory = try makeTempDirectory("in-process")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("books.csv")
        try Data("Title,Author,ISBN\nDune,Frank Herbert,9780441172719\n".utf8).write(to: file)
        await #expect(throws: BooksTrackError.self) { _ = try await api.importCSV(fileAt: file) }
        #expect(responder.requests.isEmpty)
        #expect(responder.socketsOpened == 1)
        await api.shutdown()
    }

    /// On the global pool, and on the CLI's event loop (the client's tasks and the caller's there).
    @Test(arguments: [false, true]) func theDeadlineHoldsInProcessToo(onEventLoop: Bool) async throws {
        let executor = onEventLoop ? ClientEventLoop.executor : nil
        let api = api(FakeResponder(.sleep), timeout: .milliseconds(300), executor: executor)
        do {
            _ = try await Task(executorPreference: executor) { try await api.searchISBN("9780441172719") }.value
            Issue.record("a request that never answers returned")
        } catch {
            // The deadline's time-out, not the responder's answer after 120 s.
            #expect((error as? BooksTrackError)?.category == .network)
            #expect((error as? BooksTrackError)?.kind == .timeout, "\(error)")
        }
        await api.shutdown()
    }

    @Test func anOversizedAnswerIsTheBodyLimitError() async throws {
        let api = api(FakeResponder(.tooLarge))
        do {
            _ = try await api.searchISBN("9780441172719")
            Issue.record("an oversized answer was accepted")
        } catch {
            #expect(error.kind == .bodyTooLarge)
        }
        await api.shutdown()
    }

    @Test func errorStatusesMapAsOverASocket() async throws {
        let body =
            #"{"success":false,"data":null,"metadata":{},"error":{"code":"INVALID_ISBN","message":"bad","retryable":false}}"#
        let api = api(FakeResponder(.answer(400, body)))
        do {
            _ = try await api.searchISBN("9780441172719")
            Issue.record("a 400 was accepted")
        } catch {
            #expect(error.httpStatus == 400)
            #expect(error.code == ErrorCode("INVALID_ISBN"))
        }
        await api.shutdown()
    }
}
