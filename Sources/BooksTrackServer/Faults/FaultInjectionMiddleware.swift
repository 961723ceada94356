import BooksTrackContract
import Hummingbird

/// Applies the injected faults of `FaultInjector` (only when fault injection is enabled), and
/// honours `X-Custom-Error: CORS_BLOCKED` (403 with the same header and a `CORS_BLOCKED` envelope).
struct FaultInjectionMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let faults: FaultInjector

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard faults.isEnabled else { return try await next(request, context) }
        if request.headers[.xCustomError]?.uppercased() == "CORS_BLOCKED" {
            var headers = HTTPFields()
            headers[.xCustomError] = "CORS_BLOCKED"
            throw APIError(
                ErrorCode("CORS_BLOCKED"),
                "The request was blocked by the server's CORS policy",
                status: .forbidden,
                retryable: false,
                headers: headers
            )
        }
        for action in faults.decide(method: request.method.rawValue, path: request.uri.path) {
            switch action {
            case .latency(let ms):
                try await Task.sleep(for: .milliseconds(ms))
            case .circuitOpen(let retryAfterMs, let provider):
                var headers = HTTPFields()
                headers[.retryAfter] = String(max(1, (retryAfterMs + 999) / 1000))
                throw APIError(
                    .circuitOpen,
                    ErrorCode.circuitOpen.userMessage(
                        provider: provider,
                        retryAfterSeconds: (retryAfterMs + 999) / 1000
                    ),
                    retryAfterMs: retryAfterMs,
                    provider: provider,
                    details: provider.map { ["provider": .string($0), "retryAfterMs": .number(Double(retryAfterMs))] },
                    headers: headers
                )
            case .internalError:
                throw APIError(.internalError, "Injected internal error")
            case .proxyHTML(let status):
                var headers = HTTPFields()
                headers[.contentType] = "text/html; charset=utf-8"
                let code = HTTPResponse.Status.canonical(status)
                let phrase = code.reasonPhrase.isEmpty ? "Error" : code.reasonPhrase
                let page = """
                    <html>
                    <head><title>\(status) \(phrase)</title></head>
                    <body>
                    <center><h1>\(status) \(phrase)</h1></center>
                    <hr><center>cloudflare</center>
                    </body>
                    </html>

                    """
                return Response(status: code, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
            case .emptyBody(let status):
                return Response(status: .canonical(status), headers: [.contentLength: "0"])
            }
        }
        return try await next(request, context)
    }
}
