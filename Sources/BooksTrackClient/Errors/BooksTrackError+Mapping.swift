import AsyncHTTPClient
import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1

extension BooksTrackError {
    /// Maps a non-2xx response (or an unusable 2xx body) to an error. Never throws, never crashes.
    ///
    /// - Parameters:
    ///   - notFoundMessage: the user-facing sentence for 404 (`nil`: the contract's "Book not found…").
    static func fromResponse(
        status: Int,
        headers: HTTPHeaders,
        body: ByteBuffer,
        url: String,
        notFoundMessage: String? = nil
    ) -> BooksTrackError {
        let requestID = headers.first(name: "x-request-id") ?? headers.first(name: "cf-ray")
        let headerRetryAfter = headers.first(name: "retry-after").flatMap {
            RateLimitObservation.parseRetryAfter($0, now: Date())
        }
        if headers.first(name: "x-custom-error")?.uppercased() == "CORS_BLOCKED" {
            return BooksTrackError(
                code: "CORS_BLOCKED",
                kind: .corsBlocked,
                message: "The request was blocked by the server's CORS policy.",
                detail: "X-Custom-Error: CORS_BLOCKED on HTTP \(status)",
                httpStatus: status,
                retryable: false,
                requestID: requestID,
                url: url
            )
        }
        let data = Data(buffer: body, byteTransferStrategy: .noCopy)
        let decoded = ResponseDecoding.decode(JSONValue.self, from: data, status: status)
        switch decoded {
        case .failure(let info, _):
            return fromAPIError(
                info,
                headerRetryAfter: headerRetryAfter,
                requestID: requestID,
                url: url,
                notFoundMessage: notFoundMessage
            )
        case .notJSON(_, let snippet):
            return proxyPage(
                status: status,
                body: data,
                snippet: snippet,
                requestID: requestID,
                url: url,
                retryAfter: headerRetryAfter,
                notFoundMessage: notFoundMessage
            )
        case .undecodable(_, let failure, let snippet):
            return BooksTrackError(
                code: .invalidResponse,
                kind: .decoding,
                message: "The server sent a response this client cannot read (HTTP \(status)).",
                detail: "\(failure); body: \(snippet)",
                httpStatus: status,
                requestID: requestID,
                url: url,
                decodingFailure: failure
            )
        case .success:
            // A JSON body without an error on an error status (e.g. `{}` on 500).
            let info =
                ResponseDecoding.decode(JSONValue.self, from: data, status: status).errorInfo
                ?? APIErrorInfo(code: ErrorCode(httpStatus: status), message: "HTTP \(status)", httpStatus: status)
            return fromAPIError(
                info,
                headerRetryAfter: headerRetryAfter,
                requestID: requestID,
                url: url,
                notFoundMessage: notFoundMessage
            )
        }
    }

    /// Maps a normalized API error body.
    static func fromAPIError(
        _ info: APIErrorInfo,
        headerRetryAfter: Duration?,
        requestID: String?,
        url: String,
        notFoundMessage: String? = nil
    ) -> BooksTrackError {
        let retryAfter = info.retryAfterMs.map { Duration.milliseconds(Int64(max(0, $0))) } ?? headerRetryAfter
        var info = info
        if info.retryAfterMs == nil, let headerRetryAfter {
            info.retryAfterMs = Int(headerRetryAfter.wholeMilliseconds)
        }
        var message = info.userMessage
        if info.code == .notFound, let notFoundMessage { message = notFoundMessage }
        if !info.code.isKnown, !info.message.isEmpty { message = info.message }
        // v3's problem details say what went wrong in the server's own words ("Must be ISBN-10 or
        // ISBN-13", "Sync mode limited to 50 ISBNs…"); a not-found keeps the command's sentence.
        if let sentence = info.problemSentence, info.code != .notFound || notFoundMessage == nil,
            ![.rateLimitExceeded, .circuitOpen].contains(info.code)
        {
            message = sentence
        }
        if let route = RouteGone.route(of: info) {
            info.code = .routeNotOffered
            return BooksTrackError(
                code: .routeNotOffered,
                kind: .api,
                message: "This server does not offer \(route) (it answers 404 \"Endpoint not found\").",
                detail: info.message,
                httpStatus: info.httpStatus,
                retryable: false,
                requestID: requestID,
                url: url,
                apiError: info
            )
        }
        return BooksTrackError(
            code: info.code,
            kind: .api,
            message: message,
            detail: info.message,
            httpStatus: info.httpStatus,
            retryable: info.retryable,
            retryAfter: retryAfter,
            provider: info.provider,
            requestID: requestID,
            url: url,
            apiError: info
        )
    }

    /// An HTML or empty body where JSON was expected (a proxy or load balancer answered).
    static func proxyPage(
        status: Int,
        body: Data,
        snippet: String,
        requestID: String?,
        url: String,
        retryAfter: Duration?,
        notFoundMessage: String?
    ) -> BooksTrackError {
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        let statusText = reason.isEmpty ? "\(status)" : "\(status) \(reason)"
        let looksHTML =
            snippet.isEmpty == false
            && String(decoding: body.prefix(2048), as: UTF8.self).lowercased().contains("<html")
        // A 304 reaches here only unasked (a revalidation's is served from the cache): the server
        // answered, wrongly; so does JSON that could not be read (nested too deeply, malformed).
        if status == 304 {
            return BooksTrackError(
                code: .invalidResponse,
                kind: .decoding,
                message: "The server sent an invalid answer: 304 Not Modified to a request that had nothing cached.",
                detail: snippet.isEmpty ? "empty body" : snippet,
                httpStatus: status,
                requestID: requestID,
                url: url
            )
        }
        if Self.looksLikeJSON(body) {
            return BooksTrackError(
                code: .invalidResponse,
                kind: .decoding,
                message:
                    "The server sent an invalid answer: JSON this client cannot read, nested too deeply or malformed (HTTP \(statusText)).",
                detail: snippet,
                httpStatus: status,
                requestID: requestID,
                url: url
            )
        }
        if (200..<300).contains(status) {
            return BooksTrackError(
                code: .invalidResponse,
                kind: .decoding,
                message: "The server sent a non-JSON response (HTTP \(statusText)).",
                detail: snippet.isEmpty ? "empty body" : snippet,
                httpStatus: status,
                requestID: requestID,
                url: url
            )
        }
        if status == 404 {
            return BooksTrackError(
                code: .notFound,
                kind: .api,
                message: notFoundMessage ?? ErrorCode.notFound.userMessage(),
                detail: "HTTP 404 with a non-JSON body" + (snippet.isEmpty ? "" : ": \(snippet)"),
                httpStatus: status,
                requestID: requestID,
                url: url
            )
        }
        let what = looksHTML ? "an HTML error page" : (snippet.isEmpty ? "an empty response" : "a non-JSON response")
        let retryable = [502, 503, 504].contains(status)
        return BooksTrackError(
            code: ErrorCode(httpStatus: status),
            kind: .proxyPage,
            message: "The server's proxy returned \(what) (\(statusText)).",
            detail: snippet.isEmpty ? "no body" : snippet,
            httpStatus: status,
            retryable: retryable,
            retryAfter: retryAfter,
            requestID: requestID,
            url: url
        )
    }

    /// Whether a body that did not parse begins as JSON would (`{` or `[` after white space).
    static func looksLikeJSON(_ body: Data) -> Bool {
        guard let first = body.prefix(1024).first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            return false
        }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Maps a transport-level failure (no response).
    static func fromTransport(_ error: any Error, url: String, host: String, timeout: Duration?) -> BooksTrackError {
        if let e = error as? BooksTrackError { return e }
        if error is CancellationError { return .cancelled(url: url) }
        let sendable: (any Error & Sendable)? = error
        let text = String(describing: error)
        let lower = text.lowercased()
        let typeName = String(reflecting: type(of: error))
        func make(_ kind: Kind, _ message: String, retryable: Bool = true) -> BooksTrackError {
            BooksTrackError(
                code: .networkError,
                kind: kind,
                message: message,
                detail: text,
                retryable: retryable,
                url: url,
                underlying: sendable
            )
        }
        if let e = error as? HTTPClientError {
            switch e {
            case .cancelled:
                return .cancelled(url: url)
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                let after = timeout.map { " after \(RetryFormatting.seconds($0))" } ?? ""
                return make(.timeout, "The request to \(host) timed out\(after).")
            case .connectTimeout, .getConnectionFromPoolTimeout:
                return make(.connection, "Cannot connect to \(host): no answer within the connect timeout.")
            case .remoteConnectionClosed:
                return make(.connection, "Connection lost: \(host) closed the connection.")
            case .bodyLengthMismatch:
                return make(
                    .other,
                    "The upload's length did not match the file (was it modified while uploading?).",
                    retryable: false
                )
            default:
                break
            }
        }
        if let parser = error as? HTTPParserError {
            // The connection ended inside a response (a body cut short): lost, not garbage.
            if parser == .invalidEOFState {
                return make(.connection, "Connection lost: \(host) closed the connection.")
            }
            guard let flaw = malformedHTTP(parser) else {
                return make(
                    .connection,
                    "\(host) did not answer with HTTP (is it the right address and port?).",
                    retryable: false
                )
            }
            // An HTTP answer with a broken head or framing: the server answered, wrongly (never
            // "unreachable", never answered from a cache as if offline).
            return BooksTrackError(
                code: .invalidResponse,
                kind: .decoding,
                message: "\(host) sent an invalid answer: \(flaw).",
                detail: text,
                retryable: false,
                url: url,
                underlying: sendable
            )
        }
        if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED:
                return make(
                    .connection,
                    "Cannot connect to \(host): the connection was refused (is the server running?)."
                )
            case ECONNRESET, EPIPE: return make(.connection, "Connection lost: \(host) reset the connection.")
            case ENETUNREACH, EHOSTUNREACH:
                return make(.connection, "Cannot connect to \(host): the network is unreachable.")
            default: return make(.connection, "Cannot connect to \(host).")
            }
        }
        if lower.contains("refused") {
            return make(.connection, "Cannot connect to \(host): the connection was refused (is the server running?).")
        }
        if typeName.contains("SSL") || typeName.contains("TLS") || lower.contains("certificate")
            || lower.contains("handshake")
        {
            return make(.tls, "A secure connection to \(host) could not be established (TLS).", retryable: false)
        }
        if lower.contains("dns") || lower.contains("getaddrinfo") || lower.contains("unknown host")
            || lower.contains("name or service not known") || typeName.contains("SocketAddressError")
        {
            return make(.dns, "Cannot resolve the host name \(host).", retryable: false)
        }
        if lower.contains("reset") || lower.contains("closed") || lower.contains("eof") {
            return make(.connection, "Connection lost: \(host) closed the connection.")
        }
        if typeName.contains("NIOConnectionError") {
            return make(.connection, "Cannot connect to \(host).")
        }
        return BooksTrackError(
            code: .networkError,
            kind: .other,
            message: "The request to \(host) failed.",
            detail: "\(typeName): \(text)",
            retryable: false,
            url: url,
            underlying: sendable
        )
    }

    /// What is wrong with an answer that began as HTTP (a status line), in words; nil when what
    /// came was not HTTP at all (another protocol, garbage).
    static func malformedHTTP(_ error: HTTPParserError) -> String? {
        switch error {
        case .invalidConstant, .invalidVersion, .invalidMethod, .unknown, .invalidInternalState, .paused,
            .closedConnection,
            .invalidEOFState:
            return nil
        case .invalidHeaderToken, .lfExpected, .invalidCharactersUsed, .strictModeAssertion:
            return "a response header held a character HTTP does not allow"
        case .headerOverflow:
            return "its response headers were too long"
        case .invalidContentLength, .unexpectedContentLength:
            return "its Content-Length was malformed"
        case .invalidChunkSize:
            return "its chunked body was malformed"
        case .invalidStatus:
            return "its status line was malformed"
        default:
            return "its HTTP response was malformed"
        }
    }

    /// The retry state machine's view of this error.
    var retryableFailure: RetryableFailure {
        switch kind {
        case .timeout: return .transport(.timeout)
        case .connection:
            return detail.lowercased().contains("refused") || message.contains("refused")
                || message.hasPrefix("Cannot connect")
                ? .transport(.cannotConnect) : .transport(.connectionLost)
        case .api, .proxyPage, .corsBlocked, .decoding, .bodyTooLarge:
            return .http(
                status: httpStatus ?? 0,
                code: kind == .api ? code.rawValue : nil,
                retryable: kind == .api ? retryable : (kind == .proxyPage ? retryable : false),
                retryAfter: retryAfter
            )
        case .dns, .tls, .invalidInput, .featureUnavailable, .cancelled, .other:
            return .http(status: 400, code: nil, retryable: false, retryAfter: nil)
        }
    }
}
