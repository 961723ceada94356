import AsyncHTTPClient
import BooksTrackContract
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Plain-HTTP GETs to the configured server, over connections of its own that stay open between
/// requests: NIO's HTTP/1.1 codec and one small handler per connection (`KeepAliveHandler`).
///
/// AsyncHTTPClient's request path (request bag, pool and connection state machines, the delegate)
/// is a large share of a sequential lookup's client CPU, and a GET on a kept-alive connection does
/// not need it. Everything else goes through AsyncHTTPClient: HTTPS, requests with a body, uploads, other hosts (redirects), URLs with credentials,
/// headers the encoder would refuse. Failures are AsyncHTTPClient's and NIO's own error types
/// (`HTTPClientError.deadlineExceeded`, `.connectTimeout`, `.remoteConnectionClosed`,
/// `HTTPParserError`, NIO's connect errors), so `BooksTrackError.fromTransport` reads both paths
/// alike, and the hostile-server tests run against this path.
final class KeepAlivePool: Sendable {
    /// The configured server, when it qualifies.
    struct Origin: Sendable, Hashable {
        /// `http://host:port` as the configured URL spells it (a request's URL starts with it).
        var prefix: String
        var host: String
        var port: Int
        /// `host:port` (the `Host` header).
        var authority: String
    }

    let origin: Origin
    let connectTimeout: Duration
    let limit: Int
    private let executor: EventLoopTaskExecutor?
    private let state = Mutex<(idle: [KeepAliveConnection], closed: Bool)>(([], false))

    /// Idle connections kept for reuse; a further one is closed when its response is read.
    static let maxIdle = 4

    /// `nil` unless the configured server is `http://host[:port][/path]` without credentials or an
    /// IPv6 literal, and its URL passed `ServerURL` (`base`).
    init?(base: ServerURL.CheckedBase?, configuration: APIConfiguration) {
        guard let base, let origin = Self.origin(base, url: configuration.baseURL) else { return nil }
        self.origin = origin
        connectTimeout = configuration.connectTimeout
        limit = configuration.maxBodyBytes
        executor = configuration.executor
    }

    /// The origin of `url` (host and port as Foundation parsed them), whose checked text is `base`.
    static func origin(_ base: ServerURL.CheckedBase, url: URL) -> Origin? {
        guard url.scheme?.lowercased() == "http", url.user == nil, url.password == nil,
            let host = url.host, !host.isEmpty, !host.contains(":"), !host.contains("%")
        else { return nil }
        // The text up to the end of the authority (a request's URL starts with it).
        let text = base.text.utf8
        guard let schemeEnd = text.firstRange(of: "://".utf8)?.upperBound else { return nil }
        let authorityEnd =
            text[schemeEnd...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? text.endIndex
        let authority = String(Substring(text[schemeEnd..<authorityEnd]))
        guard !authority.utf8.contains(UInt8(ascii: "%")) else { return nil }
        return Origin(
            prefix: String(Substring(text[..<authorityEnd])),
            host: host,
            port: url.port ?? 80,
            authority: authority
        )
    }

    /// The request target (`/v1/search/isbn?isbn=…`) of `url` when it is on this origin.
    func target(of url: String) -> String? {
        let bytes = url.utf8
        let prefix = origin.prefix.utf8
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
        let rest = bytes.dropFirst(prefix.count)
        guard rest.first == UInt8(ascii: "/") else { return nil }
        return String(Substring(rest))
    }

    /// Header names and values the HTTP/1.1 encoder sends as they are: printable ASCII (and tabs
    /// in values); anything else goes through AsyncHTTPClient, which validates it as it always did.
    static func sendsAsIs(_ headers: HTTPHeaders) -> Bool {
        headers.allSatisfy { name, value in
            !name.isEmpty && name.allUTF8 { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
                && value.allUTF8 { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }
        }
    }

    /// GETs `target` with `headers` and reads the whole response before `deadline` (one deadline
    /// for connect, head and body); the body is bounded by the configured limit and dropped for
    /// `droppedStatuses`. A kept-alive connection the server closed meanwhile is replaced once,
    /// unnoticed (a GET is safe to send again). Cancelling the calling task closes the connection.
    func get(
        _ target: String,
        headers: HTTPHeaders,
        until deadline: ContinuousClock.Instant,
        started: ContinuousClock.Instant,
        droppedStatuses: Set<Int>
    ) async throws -> ResponseCollector.Collected {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
        head.headers.replaceOrAdd(name: "Host", value: origin.authority)
        let exchange = KeepAliveHandler.Request(
            head: head,
            limit: limit,
            droppedStatuses: droppedStatuses,
            started: started,
            deadline: HTTPTransport.nioDeadline(deadline)
        )
        var fresh = false
        while true {
            let (connection, reused) = try await checkout(fresh: fresh, until: deadline)
            do {
                let reply = try await connection.send(exchange)
                checkin(connection, keepAlive: reply.keepAlive)
                return reply.collected
            } catch is KeepAliveHandler.Stale {
                connection.close()
                // Closed before a byte of the answer: on a reused connection the server had let
                // it go; send once more on a new connection. On a new one the server closed at once.
                guard reused else { throw HTTPClientError.remoteConnectionClosed }
                fresh = true
            } catch {
                connection.close()
                throw error
            }
        }
    }

    /// Closes every idle connection; later requests fail as on a shut-down client.
    func shutDown() {
        let idle = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle { connection.close() }
    }

    // MARK: connections

    /// An idle connection that is still open, else a new one (`fresh`: always a new one).
    private func checkout(
        fresh: Bool,
        until deadline: ContinuousClock.Instant
    ) async throws -> (KeepAliveConnection, reused: Bool) {
        while true {
            let taken = try state.withLock { state -> KeepAliveConnection? in
                if state.closed { throw HTTPClientError.alreadyShutdown }
                return fresh ? nil : state.idle.popLast()
            }
            guard let connection = taken else { break }
            if connection.channel.isActive { return (connection, true) }
            connection.close()
        }
        return (try await connect(until: deadline), false)
    }

    private func checkin(_ connection: KeepAliveConnection, keepAlive: Bool) {
        let kept =
            keepAlive && connection.channel.isActive
            && state.withLock { state in
                guard !state.closed, state.idle.count < Self.maxIdle else { return false }
                state.idle.append(connection)
                return true
            }
        if !kept { connection.close() }
    }

    private func connect(until deadline: ContinuousClock.Instant) async throws -> KeepAliveConnection {
        let loop = executor?.loop ?? MultiThreadedEventLoopGroup.singleton.next()
        let remaining = deadline - .now
        guard remaining > .zero else { throw HTTPClientError.deadlineExceeded }
        let deadlineFirst = remaining < connectTimeout
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.nanoseconds(min(remaining, connectTimeout).wholeNanoseconds))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(KeepAliveHandler())
                }
            }
        let connecting = bootstrap.connect(host: origin.host, port: origin.port)
        // The first of the connect's outcome and the caller's cancellation decides; a channel
        // that arrives after a cancellation is closed.
        let promise = loop.makePromise(of: (any Channel).self)
        let decided = Mutex(false)
        let decide: @Sendable () -> Bool = {
            decided.withLock { done in
                defer { done = true }
                return !done
            }
        }
        connecting.whenComplete { result in
            if decide() {
                promise.completeWith(result)
            } else if case .success(let channel) = result {
                channel.close(promise: nil)
            }
        }
        let channel: any Channel
        do {
            channel = try await withTaskCancellationHandler {
                try await promise.futureResult.get()
            } onCancel: {
                if decide() { promise.fail(CancellationError()) }
            }
        } catch ChannelError.connectTimeout {
            throw deadlineFirst ? HTTPClientError.deadlineExceeded : HTTPClientError.connectTimeout
        }
        do {
            let handler = try await channel.eventLoop.submit {
                try NIOLoopBound(
                    channel.pipeline.syncOperations.handler(type: KeepAliveHandler.self),
                    eventLoop: channel.eventLoop
                )
            }.get()
            return KeepAliveConnection(channel: channel, handler: handler)
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }
}

/// One connection of a `KeepAlivePool` and its handler.
final class KeepAliveConnection: Sendable {
    let channel: any Channel
    let handler: NIOLoopBound<KeepAliveHandler>

    init(channel: any Channel, handler: NIOLoopBound<KeepAliveHandler>) {
        self.channel = channel
        self.handler = handler
    }

    /// Sends `request` and waits for its whole response (or its failure). Cancelling the calling
    /// task fails it with `CancellationError` and closes the connection.
    func send(_ request: KeepAliveHandler.Request) async throws -> KeepAliveHandler.Reply {
        let loop = channel.eventLoop
        let promise = loop.makePromise(of: KeepAliveHandler.Reply.self)
        let handler = self.handler
        if loop.inEventLoop {
            handler.value.start(request, promise: promise)
        } else {
            loop.execute { handler.value.start(request, promise: promise) }
        }
        return try await withTaskCancellationHandler {
            try await promise.futureResult.get()
        } onCancel: {
            loop.execute { handler.value.fail(CancellationError()) }
        }
    }

    func close() {
        channel.close(promise: nil)
    }
}
