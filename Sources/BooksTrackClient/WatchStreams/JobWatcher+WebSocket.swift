import BooksTrackContract
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOWebSocket
import Synchronization

/// What the socket task hands to the watcher loop.
enum SocketItem: Sendable {
    case opened
    case message(String)
    case closed(code: Int?)
}

extension JobWatcher {
    /// The WebSocket URL of a job (`ws(s)://host/ws/progress?jobId=&token=`). The token travels both
    /// in the `token` query parameter — the only place production's WebSocketConnectionDO reads it
    /// (websocket-connection.ts) — and as the `bookstrack-auth.<token>` subprotocol (the documented
    /// form). Traces mask it in both places.
    func webSocketURL(jobID: String, token: String? = nil) -> String {
        var base = configuration.baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasPrefix("https://") {
            base = "wss://" + base.dropFirst("https://".count)
        } else if base.hasPrefix("http://") {
            base = "ws://" + base.dropFirst("http://".count)
        }
        var url = base + "/ws/progress?jobId=" + RequestSpec.encode(jobID)
        if let token, !token.isEmpty { url += "&token=" + RequestSpec.encode(token) }
        return url
    }

    /// One WebSocket connection: sends `ready`, answers `ping`, feeds messages to the machine.
    func runSocket(
        jobID: String,
        token: String,
        machine: inout JobWatchStateMachine,
        _ continuation: AsyncThrowingStream<WatchEvent, any Error>.Continuation
    ) async -> JobWatchStep {
        let url = webSocketURL(jobID: jobID, token: token)
        let trace = configuration.trace
        let (items, sink) = AsyncStream<SocketItem>.makeStream()
        var headers = HTTPFields()
        if let name = HTTPField.Name("Sec-WebSocket-Protocol") {
            headers[name] = WSCloseCode.authSubprotocol(token: token)
        }
        let wsConfiguration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 20,
            additionalHeaders: headers,
            closeTimeout: .seconds(5)
        )
        let logger = Logger(label: "bts.ws")
        let socketTask = Task {
            do {
                let frame = try await WebSocketClient.connect(url: url, configuration: wsConfiguration, logger: logger)
                {
                    inbound,
                    outbound,
                    _ in
                    sink.yield(.opened)
                    try await outbound.write(.text(#"{"type":"ready"}"#))
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message else { continue }
                        if text.contains(#""type":"ping""#) || text.contains(#""type": "ping""#) {
                            try await outbound.write(.text(#"{"type":"pong"}"#))
                        }
                        sink.yield(.message(text))
                    }
                }
                sink.yield(.closed(code: frame.map { Int(UInt16(webSocketErrorCode: $0.closeCode)) }))
            } catch {
                sink.yield(.closed(code: nil))
            }
            sink.finish()
        }
        // Deadlines: the upgrade must complete within `timeout`; afterwards the socket may stay
        // silent at most `streamIdleTimeout` (the server pings).
        let activity = ActivityClock()
        let opened = SynchronizedFlag()
        let connectLimit = configuration.timeout
        let idleLimit = configuration.streamIdleTimeout
        let watchdog = Task {
            while !Task.isCancelled {
                let limit = opened.value ? idleLimit : connectLimit
                let idle = activity.idle
                if idle >= limit {
                    sink.yield(.closed(code: nil))
                    sink.finish()
                    socketTask.cancel()
                    return
                }
                try? await Task.sleep(for: limit - idle)
            }
        }
        defer {
            socketTask.cancel()
            watchdog.cancel()
        }
        let masked = SecretMasking.maskURL(url)
        for await item in items {
            activity.touch()
            switch item {
            case .opened:
                opened.set()
                trace?(
                    TraceEvent(
                        phase: .streamOpened,
                        requestID: 0,
                        method: "WS",
                        url: masked,
                        requestHeaders: [
                            HeaderField(
                                name: "Sec-WebSocket-Protocol",
                                value: SecretMasking.maskText(WSCloseCode.authSubprotocol(token: token))
                            )
                        ]
                    )
                )
                _ = machine.webSocketOpened()
            case .message(let text):
                trace?(
                    TraceEvent(
                        phase: .streamEvent,
                        requestID: 0,
                        method: "WS",
                        url: masked,
                        responseBody: SecretMasking.maskText(text)
                    )
                )
                let step = machine.webSocketMessage(JobWatchDecoding.socketMessage(text))
                switch step.action {
                case .none, .sendPong:
                    for update in step.progress { continuation.yield(.progress(update)) }
                default:
                    return step
                }
            case .closed(let code):
                trace?(TraceEvent(phase: .streamClosed, requestID: 0, method: "WS", url: masked, status: code))
                if Task.isCancelled { return machine.userDetached() }
                return machine.webSocketClosed(code: code)
            }
        }
        if Task.isCancelled { return machine.userDetached() }
        return machine.webSocketClosed(code: nil)
    }
}

/// A one-way flag shared with a watchdog.
final class SynchronizedFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var value: Bool { flag.withLock { $0 } }
}
