import HummingbirdCore
import Logging
import NIOCore

/// A server child channel with `RequestHeadGuard` in front of another one's pipeline (HTTP/1 or
/// HTTP/1 with WebSocket upgrade). The inner pipeline's own log lines go through
/// `ConnectionLogHandler`, which knows from the guard whether a request ever arrived.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    /// The inner pipeline's value and what the guard records of the connection.
    struct Value: ServerChildChannelValue {
        let inner: Inner.Value
        let record: ConnectionRecord
        var channel: any Channel { inner.channel }
    }

    let inner: Inner
    let limits: RequestHeadLimits

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limits = self.limits
        let record = ConnectionRecord()
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                RequestHeadGuard(limits: limits, record: record),
                position: .first
            )
        }.flatMap { inner.setup(channel: channel, logger: logger.forConnection(record)) }
            .map { Value(inner: $0, record: record) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value.inner, logger: logger.forConnection(value.record))
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 behind the request-head guard.
    static func guardedHTTP1(configuration: HTTP1Channel.Configuration, limits: RequestHeadLimits) -> HTTPServerBuilder
    {
        HTTPServerBuilder { responder in
            GuardedChildChannel(inner: HTTP1Channel(responder: responder, configuration: configuration), limits: limits)
        }
    }
}
