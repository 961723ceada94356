import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The last handler of a `KeepAlivePool` connection (after NIO's HTTP/1.1 encoder and decoder):
/// one request at a time, its response read whole as on the other path (`ResponseAccumulator`),
/// failed at its deadline.
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
        var promise: EventLoopPromise<Reply>
        var response: ResponseAccumulator
        var timer: Scheduled<Void>?
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
        var exchange = Exchange(
            promise: promise,
            response: ResponseAccumulator(
                limit: request.limit,
                droppedStatuses: request.droppedStatuses,
                started: request.started
            )
        )
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
        do {
            switch unwrapInboundIn(data) {
            case .head(let head):
                try exchange.response.receive(head)
            case .body(let part):
                try exchange.response.receive(part)
            case .end:
                self.exchange = exchange
                guard let collected = exchange.response.collected else {
                    fail(HTTPClientError.remoteConnectionClosed)
                    return
                }
                if !collected.head.isKeepAlive { usable = false }
                finish(.success(Reply(collected: collected, keepAlive: usable)))
                return
            }
            self.exchange = exchange
        } catch {
            self.exchange = exchange
            fail(error)
        }
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
