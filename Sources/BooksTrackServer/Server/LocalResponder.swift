import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The server's router answering requests inside this process, without a socket: the same
/// middlewares and routes as the listening server, for a client in the same process (the shell's
/// embedded backend). Streams (SSE, WebSocket upgrades) still need the socket.
package struct LocalResponder: Sendable {
    let respond: @Sendable (Request, ServerRequestContext) async throws -> Response
    let logger: Logger
    /// The request's `host:port` (the server's own address: v3's absolute stream URLs name it).
    var authority = "127.0.0.1"

    /// Answers one request: `target` is the path with its query. The body is read up to `bodyLimit`
    /// bytes; beyond that it throws `LocalResponderBodyTooLarge`.
    package func respond(
        method: HTTPRequest.Method,
        target: String,
        headers: HTTPFields,
        body: ByteBuffer?,
        bodyLimit: Int
    ) async throws -> (status: Int, headers: HTTPFields, body: ByteBuffer) {
        let head = HTTPRequest(
            method: method,
            scheme: "http",
            authority: authority,
            path: target,
            headerFields: headers
        )
        let request = Request(head: head, body: RequestBody(buffer: body ?? ByteBuffer()))
        let context = ServerRequestContext(inProcess: logger)
        let response = try await respond(request, context)
        let status = Int(response.status.code)
        let fields = response.headers
        let collected = try await response.collectBody(limit: bodyLimit)
        if collected.overflowed { throw LocalResponderBodyTooLarge() }
        return (status, fields, collected.buffer)
    }
}

/// The answer is larger than the caller reads.
package struct LocalResponderBodyTooLarge: Error, Sendable {}

extension ServerRequestContext {
    /// A request from this process (`LocalResponder`): no channel; the client is the loopback address.
    init(inProcess logger: Logger) {
        self.coreContext = .init(source: InProcessContextSource(logger: logger))
        self.remoteAddress = nil
        self.clientAddress = "127.0.0.1"
    }
}

private struct InProcessContextSource: RequestContextSource {
    let logger: Logger
    /// The request's `host:port` (the server's own address: v3's absolute stream URLs name it).
    var authority = "127.0.0.1"
}
