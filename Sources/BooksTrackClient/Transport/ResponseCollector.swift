import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Reads one response whole, on the connection's event loop, through AsyncHTTPClient's delegate
/// API: the head, then a body bounded by `limit` (a declared or streamed length past it fails the
/// request with `ResponseBodyTooLarge`). The body of a redirect is read and dropped.
///
/// The delegate API, not `execute(_:deadline:)`: that one registered its cancel handler through a
/// task on the global pool (a thread woken per request) and needed a second deadline race to read
/// the body; here the request's one deadline covers head and body.
final class ResponseCollector: HTTPClientResponseDelegate {
    struct Collected: Sendable {
        var head: HTTPResponseHead
        var body: ByteBuffer
        var timeToHead: Duration
    }

    private struct State {
        var head: HTTPResponseHead?
        var body = ByteBuffer()
        var timeToHead: Duration = .zero
        var dropping = false
    }

    let limit: Int
    let started: ContinuousClock.Instant
    let droppedStatuses: Set<Int>
    private let state = Mutex(State())

    /// `droppedStatuses`: statuses whose body is read and dropped (redirects).
    init(limit: Int, started: ContinuousClock.Instant, droppedStatuses: Set<Int>) {
        self.limit = limit
        self.started = started
        self.droppedStatuses = droppedStatuses
    }

    func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let dropping = droppedStatuses.contains(Int(head.status.code))
        if !dropping, let declared = head.headers.first(name: "content-length").flatMap(Int.init), declared > limit {
            return task.eventLoop.makeFailedFuture(ResponseBodyTooLarge())
        }
        let elapsed = ContinuousClock.now - started
        state.withLock { state in
            state.head = head
            state.timeToHead = elapsed
            state.dropping = dropping
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = state.withLock { state -> Bool in
            if state.dropping { return true }
            guard state.body.readableBytes + buffer.readableBytes <= limit else { return false }
            if state.body.readableBytes == 0 {
                state.body = buffer
            } else {
                var part = buffer
                state.body.writeBuffer(&part)
            }
            return true
        }
        return fits ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(ResponseBodyTooLarge())
    }

    func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
        try state.withLock { state in
            guard let head = state.head else { throw HTTPClientError.remoteConnectionClosed }
            return Collected(head: head, body: state.dropping ? ByteBuffer() : state.body, timeToHead: state.timeToHead)
        }
    }
}

/// A response body past the client's limit (declared by `Content-Length` or streamed).
struct ResponseBodyTooLarge: Error, Sendable {}
