import Logging
import Synchronization

/// What the request-head guard saw of one connection, for its log lines.
final class ConnectionRecord: Sendable {
    private let passed = Mutex(0)

    /// Request heads the guard passed on to the HTTP pipeline.
    var requestsPassed: Int { passed.withLock { $0 } }

    func requestPassed() { passed.withLock { $0 += 1 } }
}

/// The log handler of one connection's own lines (the HTTP pipeline's, not a route's): a warning or
/// error about a connection that ended before any request reached the pipeline — the client closed
/// or reset it, or it sent nothing before the head deadline — is an ordinary end and is logged at
/// debug level. Hummingbird's WebSocket-upgrade pipeline logs every such end as an error
/// ("Error handling upgrade result"): up to a thousand lines under a crowd of clients.
struct ConnectionLogHandler: LogHandler {
    var base: any LogHandler
    let record: ConnectionRecord

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if event.level >= .warning, record.requestsPassed == 0 {
            guard base.logLevel <= .debug else { return }
            event.level = .debug
        }
        base.log(event: event)
    }
}

extension Logger {
    /// This logger for one connection's own lines (`ConnectionLogHandler`).
    func forConnection(_ record: ConnectionRecord) -> Logger {
        var logger = self
        logger.handler = ConnectionLogHandler(base: handler, record: record)
        return logger
    }
}
