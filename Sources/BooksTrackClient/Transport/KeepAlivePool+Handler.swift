import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The last handler of a `KeepAlivePool` connection (after NIO's HTTP/1.1 encoder and decoder):
/// one request at a time, its response collected whole like `ResponseCollector` does (head, a
/// body bounded by `limit`, a redirect's body read and dropped), failed at its deadline.
/// Everything runs on the connection's event loop.
final class KeepAliveHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    struct Request: Sendable {
        var head: HTTPRequestHead
        var limit: Int
        var droppedStatuses: Set<Int>
        var started: ContinuousClock.Instant
        var deadline: NIODeadline
    }

    struct Reply: Sendable {
        var collected: ResponseCollector.Collected
        /// The response lets the connection carry another request.
        var keepAlive: Bool
    }

    /// The connection closed (or could not be written) before a byte of the response arrived.
    struct Stale: Error {}

    private struct Exchange {
        var request: Request
        var promise: EventLoopPromise<Reply>
        var timer: Scheduled<Void>?
        var head: HTTPResponseHead?
        var body = ByteBuffer()
        var timeToHead: Duration = .zero
        var dropping = false
        var received = false
    }

    private var context: ChannelHandlerContext?
    private var exchange: Exchange?
    /// False once the connection failed or closed: nothing more is sent on it.
    private var usable = true

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        finish(.failure(exchange?.received == true ? HTTPClientError.remoteConnectionClosed : Stale()))
    }

    /// Sends `request`; `promise` gets its reply or failure.
    func start(_ request: Request, promise: EventLoopPromise<Reply>) {
        guard let context, usable, context.channel.isActive, exchange == nil else {
            promise.fail(Stale())
            return
        }
        var exchange = Exchange(request: request, promise: promise)
        exchange.timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: request.deadline) { [weak self] in
            self?.fail(HTTPClientError.deadlineExceeded)
        }
        self.exchange = exchange
        context.write(wrapOutboundOut(.head(request.head)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenFailure { [weak self] _ in
            guard let self, let exchange = self.exchange else { return }
            self.fail(exchange.received ? HTTPClientError.remoteConnectionClosed : Stale())
        }
    }

    /// Fails the request in flight, if any, and closes the connection.
    func fail(_ error: any Error) {
        usable = false
        finish(.failure(error))
        context?.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard var exchange else {
            // Bytes nobody asked for: the connection is not to be trusted with another request.
            fail(HTTPClientError.remoteConnectionClosed)
            return
        }
        exchange.received = true
        switch unwrapInboundIn(data) {
        case .head(let head):
            let dropping = exchange.request.droppedStatuses.contains(Int(head.status.code))
            if !dropping, let declared = head.headers.first(name: "content-length").flatMap(Int.init),
                declared > exchange.request.limit
            {
                self.exchange = exchange
                fail(ResponseBodyTooLarge())
                return
            }
            exchange.head = head
            exchange.dropping = dropping
            exchange.timeToHead = ContinuousClock.now - exchange.request.started
        case .body(var part):
            if !exchange.dropping {
                guard exchange.body.readableBytes + part.readableBytes <= exchange.request.limit else {
                    self.exchange = exchange
                    fail(ResponseBodyTooLarge())
                    return
                }
                if exchange.body.readableBytes == 0 {
                    exchange.body = part
                } else {
                    exchange.body.writeBuffer(&part)
                }
            }
        case .end:
            guard let head = exchange.head else {
                self.exchange = exchange
                fail(HTTPClientError.remoteConnectionClosed)
                return
            }
            self.exchange = exchange
            let collected = ResponseCollector.Collected(
                head: head, body: exchange.dropping ? ByteBuffer() : exchange.body, timeToHead: exchange.timeToHead)
            if !head.isKeepAlive { usable = false }
            finish(.success(Reply(collected: collected, keepAlive: head.isKeepAlive && usable)))
            return
        }
        self.exchange = exchange
    }

    func channelInactive(context: ChannelHandlerContext) {
        usable = false
        finish(.failure(exchange?.received == true ? HTTPClientError.remoteConnectionClosed : Stale()))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
    }

    private func finish(_ result: Result<Reply, any Error>) {
        guard let exchange else { return }
        self.exchange = nil
        exchange.timer?.cancel()
        exchange.promise.completeWith(result)
    }
}
