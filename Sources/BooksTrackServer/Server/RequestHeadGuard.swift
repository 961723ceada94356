import Foundation
import NIOCore

/// The rules a connection's requests must meet before the HTTP decoder sees them.
///
/// Hummingbird's WebSocket-upgrade pipeline waits for the first request head before it installs
/// its error handling and idle timer: a garbage request line, an oversized header, an HTTP/0.9 line,
/// a bad `Content-Length` or a client that never finishes its header kept the socket open for
/// minutes without an answer. This guard answers those with 400/431/408 and closes. The idle timer
/// never fires on a body sent a byte a second: the body has its own deadline.
package struct RequestHeadLimits: Sendable, Hashable {
    /// The largest request head (request line and header fields), in bytes.
    package var maxHeadBytes: Int
    /// How long a request may take to send its whole head (the first: from the moment the
    /// connection is served, when it leaves the listen queue; a later one on a kept-alive connection:
    /// from its first byte). A connection that sent nothing by then is closed without an answer.
    package var headTimeout: TimeAmount
    /// How long a request's body may take to arrive once its head has (`--body-timeout`).
    package var bodyTimeout: TimeAmount
    /// How long the server still reads (and drops) what a client sends after the server has
    /// answered and shut its side (`Connection: close`, a refused upload) when the last request
    /// was not read whole, before it closes the connection: closing with unread bytes would reset it
    /// and could cost the client the answer. When the request was read whole it closes at once.
    package var closeLinger: TimeAmount

    /// The body deadline of `bts serve` unless `--body-timeout` says otherwise: an 8 MB import or a
    /// 50 MB scan upload over a slow link fits; a body trickled a byte at a time does not hold a
    /// connection longer.
    package static let defaultBodyTimeout = TimeAmount.seconds(60)

    package init(
        maxHeadBytes: Int = 32 * 1024,
        headTimeout: TimeAmount = .seconds(10),
        bodyTimeout: TimeAmount = defaultBodyTimeout,
        closeLinger: TimeAmount = .seconds(2)
    ) {
        self.maxHeadBytes = maxHeadBytes
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.closeLinger = closeLinger
    }
}

/// What the guard decided about the bytes seen so far (pure; tested without a channel).
package enum RequestHeadVerdict: Equatable, Sendable {
    /// The head is not complete yet and still within the limit.
    case needMore
    /// The head is complete and well formed: pass everything on.
    case accept
    /// Answer with this status and close.
    case reject(status: Int, reason: String)

    /// Judges the bytes received so far on a new connection.
    package static func judge(_ bytes: [UInt8], limits: RequestHeadLimits) -> RequestHeadVerdict {
        guard let end = headEnd(bytes) else {
            if bytes.count > limits.maxHeadBytes {
                return .reject(status: 431, reason: "Request Header Fields Too Large")
            }
            // A request line that already cannot be HTTP/1.x is refused without waiting for more.
            if let lineEnd = bytes.firstIndex(of: 0x0A), !isRequestLine(Array(bytes[..<lineEnd])) {
                return .reject(status: 400, reason: "Bad Request")
            }
            if bytes.count > 8, !bytes.prefix(8).allSatisfy(isTokenByte), !bytes.prefix(8).contains(0x20) {
                return .reject(status: 400, reason: "Bad Request")
            }
            return .needMore
        }
        if end > limits.maxHeadBytes { return .reject(status: 431, reason: "Request Header Fields Too Large") }
        var lines = split(Array(bytes[..<end]))
        guard !lines.isEmpty, isRequestLine(lines.removeFirst()) else {
            return .reject(status: 400, reason: "Bad Request")
        }
        var contentLengths: Set<String> = []
        var chunked = false
        for line in lines {
            guard let colon = line.firstIndex(of: 0x3A), colon > 0, line[..<colon].allSatisfy(isTokenByte) else {
                return .reject(status: 400, reason: "Bad Request")
            }
            if line[line.index(after: colon)...].contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                return .reject(status: 400, reason: "Bad Request")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self)
                .trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            if name == "content-length" {
                guard !value.isEmpty, value.count <= 18, value.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    return .reject(status: 400, reason: "Bad Request")
                }
                contentLengths.insert(String(value.drop { $0 == "0" }))
            } else if name == "transfer-encoding" {
                chunked = true
            }
        }
        if contentLengths.count > 1 || (chunked && !contentLengths.isEmpty) {
            return .reject(status: 400, reason: "Bad Request")
        }
        return .accept
    }

    /// The offset just past the blank line ending the head, if it arrived.
    static func headEnd(_ bytes: [UInt8], from start: Int = 0) -> Int? {
        var index = max(0, start)
        while index + 1 < bytes.count {
            if bytes[index] == 0x0A {
                if bytes[index + 1] == 0x0A { return index + 2 }
                if bytes[index + 1] == 0x0D, index + 2 < bytes.count, bytes[index + 2] == 0x0A { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    /// The head's lines without their CR LF / LF endings, the empty last line dropped.
    static func split(_ head: [UInt8]) -> [ArraySlice<UInt8>] {
        head.split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { $0.last == 0x0D ? $0.dropLast() : $0 }
            .filter { !$0.isEmpty }
    }

    /// `METHOD SP target SP HTTP/1.0|1.1` (a trailing CR allowed).
    static func isRequestLine(_ line: [UInt8]) -> Bool { isRequestLine(line[...]) }

    static func isRequestLine(_ raw: ArraySlice<UInt8>) -> Bool {
        let line = raw.last == 0x0D ? raw.dropLast() : raw
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
            parts[1].allSatisfy({ $0 > 0x20 && $0 != 0x7F })
        else { return false }
        return Array(parts[2]) == Array("HTTP/1.1".utf8) || Array(parts[2]) == Array("HTTP/1.0".utf8)
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

/// Feeds a connection's bytes to `RequestHeadVerdict` incrementally: the head's end and the request
/// line are looked for only in bytes not seen before, so a client dripping one byte at a time costs
/// linear work, and the whole head is judged once, when it is complete.
struct RequestHeadScanner {
    let limits: RequestHeadLimits
    private(set) var bytes: [UInt8] = []
    /// The offset just past the head, once it is complete.
    private(set) var headEnd: Int?
    private var scanned = 0
    private var firstLineChecked = false

    init(limits: RequestHeadLimits) { self.limits = limits }

    mutating func feed(_ chunk: some Sequence<UInt8>) -> RequestHeadVerdict {
        bytes.append(contentsOf: chunk)
        if !firstLineChecked {
            if let lineEnd = bytes[scanned...].firstIndex(of: 0x0A) {
                firstLineChecked = true
                if !RequestHeadVerdict.isRequestLine(bytes[..<lineEnd]) {
                    return .reject(status: 400, reason: "Bad Request")
                }
            } else if bytes.count > 8, !bytes.prefix(8).contains(0x20) {
                return .reject(status: 400, reason: "Bad Request")
            }
        }
        if let end = RequestHeadVerdict.headEnd(bytes, from: scanned) {
            headEnd = end
            return end > limits.maxHeadBytes
                ? .reject(status: 431, reason: "Request Header Fields Too Large")
                : RequestHeadVerdict.judge(Array(bytes[..<end]), limits: limits)
        }
        scanned = max(0, bytes.count - 2)
        if bytes.count > limits.maxHeadBytes { return .reject(status: 431, reason: "Request Header Fields Too Large") }
        return .needMore
    }
}

/// The channel handler at the very front of every server connection: holds the bytes of each
/// request head until `RequestHeadVerdict` accepts them, answers 400/431 (malformed, too large) or
/// 408 (begun but not complete within the head timeout) and closes; then passes the body on while
/// following it to its end (`RequestBodyTracker`), and a body not whole within the body timeout is
/// answered 408 (or, when a response has begun, the connection is just closed). After an `Upgrade`
/// it only passes bytes on. When the server has shut its side of the connection, it closes the
/// connection (after `closeLinger` when the last request was not read whole): the HTTP pipeline
/// would otherwise hold it, and its place among `maxConnections`, until the client closes or the
/// idle timeout.
final class RequestHeadGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Phase {
        /// Holding a request head's bytes.
        case head
        /// Passing a body on, following it to its end.
        case body(RequestBodyTracker)
        /// After an upgrade: not HTTP/1 any more.
        case passing
        /// The server shut its side: dropping what still arrives until the client closes or the
        /// linger ends.
        case lingering
    }

    private let limits: RequestHeadLimits
    private let record: ConnectionRecord
    private var scanner: RequestHeadScanner
    private var phase = Phase.head
    /// Requests accepted on this connection so far.
    private var accepted = 0
    /// Whether a response byte was written since the current request's head was accepted.
    private var wroteSinceAccept = false
    private var closing = false
    /// Whether the client shut its side (half-closure).
    private var inputClosed = false
    private var timer: Scheduled<Void>?

    init(limits: RequestHeadLimits, record: ConnectionRecord = ConnectionRecord()) {
        self.limits = limits
        self.record = record
        self.scanner = RequestHeadScanner(limits: limits)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startTimer(context, limits.headTimeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startTimer(context, limits.headTimeout)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopTimer()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopTimer()
        context.fireChannelInactive()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        wroteSinceAccept = true
        context.write(data, promise: promise)
    }

    private func stopTimer() {
        timer?.cancel()
        timer = nil
    }

    private func startTimer(_ context: ChannelHandlerContext, _ delay: TimeAmount) {
        guard timer == nil else { return }
        if case .passing = phase { return }
        if case .lingering = phase { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: delay) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            handler.timedOut(context)
        }
    }

    /// The head or body deadline passed: 408 when a request had begun and nothing of a response was
    /// written yet (a later head on a kept-alive connection may follow a response still being sent:
    /// that one is closed). A connection that sent nothing is closed without an answer: no request
    /// was made (its client's bytes may still be on their way, after a full listen queue dropped the
    /// handshake's last packet), so a 408 would answer one it never saw.
    private func timedOut(_ context: ChannelHandlerContext) {
        switch phase {
        case .passing:
            return
        case .lingering:
            close(context)
        case .head:
            if accepted == 0, !scanner.bytes.isEmpty {
                reject(context, status: 408, reason: "Request Timeout")
            } else {
                close(context)
            }
        case .body:
            if wroteSinceAccept { close(context) } else { reject(context, status: 408, reason: "Request Timeout") }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent {
            switch event {
            case .outputClosed:
                serverShutItsSide(context)
            case .inputClosed:
                inputClosed = true
                if case .lingering = phase { close(context) }
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The server answered and shut its side (`Connection: close`, a refused upload, the end of a
    /// WebSocket): the connection is closed now when the client has shut its side too or the last
    /// request was read whole with nothing after it; else what the client still sends is read and
    /// dropped until it closes, for at most `closeLinger`.
    private func serverShutItsSide(_ context: ChannelHandlerContext) {
        guard !closing else { return }
        let readWhole: Bool
        switch phase {
        case .head: readWhole = scanner.bytes.isEmpty
        case .body, .passing, .lingering: readWhole = false
        }
        stopTimer()
        if inputClosed || readWhole {
            close(context)
            return
        }
        phase = .lingering
        scanner = RequestHeadScanner(limits: limits)
        startLingerTimer(context)
        context.read()
    }

    private func startLingerTimer(_ context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: limits.closeLinger) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            handler.timedOut(context)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var pending = unwrapInboundIn(data)
        while pending.readableBytes > 0, !closing {
            switch phase {
            case .lingering:
                return
            case .passing:
                context.fireChannelRead(wrapInboundOut(pending))
                return
            case .body(var tracker):
                guard let used = tracker.feed(pending.readableBytesView), let part = pending.readSlice(length: used)
                else {
                    phase = .body(tracker)
                    context.fireChannelRead(wrapInboundOut(pending))
                    return
                }
                // The body is whole: the rest of the bytes start the next request.
                stopTimer()
                phase = .head
                if part.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(part)) }
            case .head:
                if scanner.bytes.isEmpty, accepted > 0 { startTimer(context, limits.headTimeout) }
                switch scanner.feed(pending.readableBytesView) {
                case .needMore:
                    return
                case .reject(let status, let reason):
                    reject(context, status: status, reason: reason)
                    return
                case .accept:
                    let bytes = scanner.bytes
                    let end = scanner.headEnd ?? bytes.count
                    scanner = RequestHeadScanner(limits: limits)
                    stopTimer()
                    accepted += 1
                    record.requestPassed()
                    wroteSinceAccept = false
                    let framing = RequestBodyFraming(head: Array(bytes[..<end]))
                    if framing == .upgrade {
                        phase = .passing
                    } else if let tracker = RequestBodyTracker(framing) {
                        phase = .body(tracker)
                        startTimer(context, limits.bodyTimeout)
                    }
                    var head = context.channel.allocator.buffer(capacity: end)
                    head.writeBytes(bytes[..<end])
                    context.fireChannelRead(wrapInboundOut(head))
                    var rest = context.channel.allocator.buffer(capacity: bytes.count - end)
                    rest.writeBytes(bytes[end...])
                    pending = rest
                }
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if case .lingering = phase {
            // The HTTP pipeline asks for no more reads once it is done: read on to see the close.
            context.read()
            return
        }
        context.fireChannelReadComplete()
    }

    private func reject(_ context: ChannelHandlerContext, status: Int, reason: String) {
        guard !closing else { return }
        let text = "HTTP/1.1 \(status) \(reason)\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        close(context)
    }

    private func close(_ context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        stopTimer()
        scanner = RequestHeadScanner(limits: limits)
        context.close(promise: nil)
    }
}
