import HummingbirdCore
import Logging
import NIOCore

/// A server child channel with `RequestHeadGuard` in front of another one's pipeline (HTTP/1 or
/// HTTP/1 with WebSocket upgrade).
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let limits: RequestHeadLimits

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limits = self.limits
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestHeadGuard(limits: limits), position: .first)
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 behind the request-head guard.
    static func guardedHTTP1(configuration: HTTP1Channel.Configuration, limits: RequestHeadLimits) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedChildChannel(inner: HTTP1Channel(responder: responder, configuration: configuration), limits: limits)
        }
    }
}
