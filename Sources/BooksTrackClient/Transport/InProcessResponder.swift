import BooksTrackContract
import NIOCore
import NIOHTTP1

/// A server in this very process (the shell's embedded backend) that answers ordinary requests
/// without a socket: no connection, no HTTP encoding or parsing on either side. Streams (SSE,
/// WebSocket) and uploads still go to the server's socket at `baseURL`.
package protocol InProcessResponder: Sendable {
    /// Answers one request. `target` is the path with its query (`/v1/search/isbn?isbn=…`); a body
    /// larger than `bodyLimit` fails with `InProcessBodyTooLarge`.
    func respond(
        method: String,
        target: String,
        headers: HTTPHeaders,
        body: ByteBuffer?,
        bodyLimit: Int
    ) async throws
        -> InProcessResponse

    /// Makes sure the server listens at the client's `baseURL` (it may open its socket only when a
    /// stream or an upload first needs it).
    func openSocket() async throws
}

extension InProcessResponder {
    /// For the client: `openSocket` with its failure as the client's error.
    func openSocket(for url: String) async throws(BooksTrackError) {
        do {
            try await openSocket()
        } catch {
            throw BooksTrackError(
                code: .networkError,
                kind: .other,
                message: "The embedded server could not open its socket.",
                detail: "\(error)",
                retryable: false,
                url: url
            )
        }
    }
}

/// What an in-process server answered.
package struct InProcessResponse: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: ByteBuffer

    package init(status: Int, headers: HTTPHeaders, body: ByteBuffer) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// The in-process answer was larger than the client reads.
package struct InProcessBodyTooLarge: Error, Sendable {
    package init() {}
}
