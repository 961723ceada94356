import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOWebSocket
import ServiceLifecycle

extension JobRoutes {
    /// The subprotocol prefix carrying a job token: `bookstrack-auth.<token>`.
    static let authSubprotocolPrefix = "bookstrack-auth."

    /// Registers `GET /ws/progress?jobId=` (WebSocket upgrade). The server must be built with
    /// `.http1WebSocketUpgrade(webSocketRouter: router)` for the upgrade to happen.
    ///
    /// With `dialect` (`--dialect production`) the token is read only from the `token` query parameter
    /// and works for one connection; a refused upgrade is left to the HTTP router (plain-text 401).
    package static func registerWebSocket<Context: WebSocketRequestContext>(
        on router: Router<Context>,
        engine: JobEngine,
        dialect: ProductionDialectState? = nil
    ) {
        registerWebSocket(on: router, engine: JobEngineSource(engine), dialect: dialect)
    }

    /// `registerWebSocket` with an engine that may be opened by the first job request.
    package static func registerWebSocket<Context: WebSocketRequestContext>(
        on router: Router<Context>,
        engine source: JobEngineSource,
        dialect: ProductionDialectState? = nil
    ) {
        router.ws(
            "/ws/progress",
            shouldUpgrade: { request, _ in
                if let dialect {
                    guard let engine = try? source.engine() else { return .dontUpgrade }
                    return await ProductionDialect.shouldUpgrade(request, engine: engine, state: dialect)
                }
                // Echo the auth subprotocol so that clients which require an accepted protocol connect;
                // the token itself is checked after the upgrade (a bad one closes with 1008).
                var headers = HTTPFields()
                if let offered = offeredAuthSubprotocol(request.headers[values: .secWebSocketProtocol]) {
                    headers[.secWebSocketProtocol] = offered
                }
                return .upgrade(headers)
            },
            onUpgrade: { inbound, outbound, context in
                try await JobWebSocket.run(
                    engine: try source.engine(),
                    request: context.request,
                    inbound: inbound,
                    outbound: outbound,
                    productionDialect: dialect != nil
                )
            }
        )
    }

    /// A WebSocket-only router (for servers whose main router context is not a `WebSocketRequestContext`).
    package static func makeWebSocketRouter(
        engine: JobEngine,
        dialect: ProductionDialectState? = nil
    ) -> Router<BasicWebSocketRequestContext> {
        makeWebSocketRouter(engine: JobEngineSource(engine), dialect: dialect)
    }

    /// `makeWebSocketRouter` with an engine that may be opened by the first job request.
    package static func makeWebSocketRouter(
        engine source: JobEngineSource,
        dialect: ProductionDialectState? = nil
    ) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        registerWebSocket(on: router, engine: source, dialect: dialect)
        return router
    }

    /// The first offered `bookstrack-auth.<token>` subprotocol (values may be comma-separated lists).
    static func offeredAuthSubprotocol(_ values: [String]) -> String? {
        for value in values {
            for item in value.split(separator: ",") {
                let proto = item.trimmingCharacters(in: .whitespaces)
                if proto.hasPrefix(authSubprotocolPrefix), proto.count > authSubprotocolPrefix.count { return proto }
            }
        }
        return nil
    }
}

/// Drives one `/ws/progress` connection with a `WSProgressSession`.
enum JobWebSocket {
    private enum Input: Sendable {
        case client(String)
        case clientGone
        case event(JobEvent)
        case liveEnded
        case shutdown
        case tick
    }

    static func run(
        engine: JobEngine,
        request: Request,
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        productionDialect: Bool = false
    ) async throws {
        let jobID = request.uri.queryParameters.get("jobId") ?? ""
        let queryToken = request.uri.queryParameters.get("token").map { String($0) }
        let token =
            productionDialect
            ? queryToken
            : JobRoutes.offeredAuthSubprotocol(request.headers[values: .secWebSocketProtocol])
                .map { String($0.dropFirst(JobRoutes.authSubprotocolPrefix.count)) } ?? queryToken
        guard !jobID.isEmpty else {
            try await outbound.close(.policyViolation, reason: "jobId query parameter is required")
            return
        }
        switch await engine.checkToken(token, for: jobID) {
        case .valid: break
        case .notFound:
            try await outbound.close(.policyViolation, reason: "unknown job")
            return
        case .invalid, .expired:
            try await outbound.close(
                .policyViolation,
                reason: token == nil ? "missing token" : "invalid or expired token"
            )
            return
        }
        guard let subscription = await engine.subscribe(to: jobID) else {
            try await outbound.close(.policyViolation, reason: "unknown job")
            return
        }
        let config = engine.configuration
        var session = WSProgressSession(
            jobID: jobID,
            pipeline: subscription.record.pipeline.wire,
            readyTimeout: config.webSocketReadyTimeout,
            pingInterval: config.webSocketPingInterval,
            now: .now
        )
        let tick = min(
            max(min(config.webSocketReadyTimeout, config.webSocketPingInterval) / 4, .milliseconds(5)),
            .seconds(1)
        )
        let encoder = JSONCoding.encoder()
        let (inputs, input) = AsyncStream<Input>.makeStream(bufferingPolicy: .unbounded)

        // Replayed events go first, so that the stream is in sequence order.
        for event in subscription.replay { input.yield(.event(event)) }
        var lastSequence = 0

        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                defer { group.cancelAll() }
                group.addTask {
                    do {
                        for try await message in inbound.messages(maxSize: 64 * 1024) {
                            if case .text(let text) = message { input.yield(.client(text)) }
                        }
                    } catch {}
                    input.yield(.clientGone)
                }
                subscription.feed(
                    input,
                    into: &group,
                    tick: tick,
                    event: { .event($0) },
                    ended: .liveEnded,
                    ticked: .tick
                )
                var pending = inputs.makeAsyncIterator()
                while let next = await pending.next() {
                    let now = ContinuousClock.now
                    let timestamp = engine.clock.now().epochMilliseconds
                    let outputs: [WSProgressSession.Output]
                    switch next {
                    case .client(let text):
                        outputs = session.clientText(text, timestamp: timestamp, now: now)
                    case .clientGone:
                        return
                    case .event(let event):
                        guard event.sequence > lastSequence else { continue }
                        lastSequence = event.sequence
                        var summary: WSProgressSession.Summary?
                        if event.status.isTerminal, let record = await engine.record(of: jobID) {
                            summary = .init(
                                successCount: record.successCount,
                                failureCount: record.failureCount,
                                durationMs: Int(
                                    ((record.completedTime ?? record.startTime).timeIntervalSince(record.startTime)
                                        * 1000).rounded()
                                ),
                                expiresAt: record.expiresAt.map(ISO8601.string(from:)) ?? ""
                            )
                        }
                        outputs = session.event(event, summary: summary, timestamp: timestamp, now: now)
                    case .liveEnded:
                        outputs = session.liveEnded()
                    case .shutdown:
                        outputs = session.shutdown()
                    case .tick:
                        outputs = session.tick(timestamp: timestamp, now: now)
                    }
                    for output in outputs {
                        switch output {
                        case .send(let message):
                            let data =
                                productionDialect
                                ? try encoder.encode(
                                    ProductionDialect.webSocketMessage(
                                        message,
                                        totalCount: subscription.record.totalCount
                                    )
                                )
                                : try encoder.encode(message)
                            try await outbound.writeTextMessage(String(decoding: data, as: UTF8.self))
                        case .close(let code, let reason):
                            try await outbound.close(WebSocketErrorCode(codeNumber: Int(code)), reason: reason)
                            return
                        }
                    }
                }
            }
        } onGracefulShutdown: {
            input.yield(.shutdown)
        }
    }
}
