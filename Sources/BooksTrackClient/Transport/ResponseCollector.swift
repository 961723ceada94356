import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// One response read whole, as both socket paths read it (`ResponseCollector` for AsyncHTTPClient,
/// `KeepAliveHandler` for kept-alive connections): the head, then a body bounded by `limit` (a
/// declared `Content-Length` or streamed bytes past it are `ResponseBodyTooLarge`); the body of a
/// status in `droppedStatuses` (redirects) is read and dropped, unbounded.
struct ResponseAccumulator {
    let limit: Int
    let droppedStatuses: Set<Int>
    let started: ContinuousClock.Instant
    private(set) var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var timeToHead: Duration = .zero
    private var dropping = false

    init(limit: Int, droppedStatuses: Set<Int>, started: ContinuousClock.Instant) {
        self.limit = limit
        self.droppedStatuses = droppedStatuses
        self.started = started
    }

    mutating func receive(_ head: HTTPResponseHead) throws(ResponseBodyTooLarge) {
        let dropping = droppedStatuses.contains(Int(head.status.code))
        if !dropping, let declared = head.headers.first(name: "content-length").flatMap(Int.init), declared > limit {
            throw ResponseBodyTooLarge()
        }
        self.head = head
        self.dropping = dropping
        timeToHead = ContinuousClock.now - started
    }

    mutating func receive(_ part: ByteBuffer) throws(ResponseBodyTooLarge) {
        if dropping { return }
        guard body.readableBytes + part.readableBytes <= limit else { throw ResponseBodyTooLarge() }
        if body.readableBytes == 0 {
            body = part
        } else {
            var part = part
            body.writeBuffer(&part)
        }
    }

    /// The response, once its head arrived.
    var collected: ResponseCollector.Collected? {
        head.map { ResponseCollector.Collected(head: $0, body: dropping ? ByteBuffer() : body, timeToHead: timeToHead) }
    }
}

/// Reads one response whole (`ResponseAccumulator`), on the connection's event loop, through
/// AsyncHTTPClient's delegate API.
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

    private let state: Mutex<ResponseAccumulator>

    /// `droppedStatuses`: statuses whose body is read and dropped (redirects).
    init(limit: Int, started: ContinuousClock.Instant, droppedStatuses: Set<Int>) {
        state = Mutex(ResponseAccumulator(limit: limit, droppedStatuses: droppedStatuses, started: started))
    }

    func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        do {
            try state.withLock { (state) throws(ResponseBodyTooLarge) in try state.receive(head) }
            return task.eventLoop.makeSucceededVoidFuture()
        } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        do {
            try state.withLock { (state) throws(ResponseBodyTooLarge) in try state.receive(buffer) }
            return task.eventLoop.makeSucceededVoidFuture()
        } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
    }

    func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
        guard let collected = state.withLock({ $0.collected }) else { throw HTTPClientError.remoteConnectionClosed }
        return collected
    }
}

/// A response body past the client's limit (declared by `Content-Length` or streamed).
struct ResponseBodyTooLarge: Error, Sendable {}
