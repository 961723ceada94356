import AsyncHTTPClient
import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Synchronization

/// The raw outcome of one request attempt that produced a response (any status).
struct RawResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: ByteBuffer
    /// The masked URL.
    var url: String
    var timeToHead: Duration
    var duration: Duration
    /// Whether a redirect took the request to another origin: that origin's answer is never
    /// cached under the configured server's request.
    var crossedOrigin = false

    var headerFields: [HeaderField] { headers.map { HeaderField(name: $0.name, value: $0.value) } }
}

/// Sends single attempts over one shared `HTTPClient`: deadline per attempt, bounded body reads,
/// real cancellation, tracing with secrets masked.
struct HTTPTransport: Sendable {
    let clients: LazyHTTPClient
    let configuration: APIConfiguration
    /// The configured server's URL, checked once (each request's URL is checked against it).
    let checkedBase: ServerURL.CheckedBase?
    /// Plain-HTTP GETs to the configured server (nil: it is HTTPS or otherwise not plain).
    let keepAlive: KeepAlivePool?

    init(configuration: APIConfiguration) {
        self.configuration = configuration
        clients = LazyHTTPClient { Self.makeClient(configuration) }
        checkedBase = ServerURL.CheckedBase(configuration.baseURL.absoluteString)
        keepAlive = KeepAlivePool(base: checkedBase, configuration: configuration)
    }

    /// Closes the shared client and the kept-alive connections.
    func shutDown() async {
        keepAlive?.shutDown()
        await clients.shutDown()
    }

    /// The shared HTTP client, created by the first request that goes over a socket (an embedded
    /// one-shot command answered in-process never creates one).
    var client: HTTPClient { clients.client }

    /// Creates the shared client (no read timeout: ordinary requests carry a deadline, streams an
    /// idle timer), on the configured loop if there is one.
    static func makeClient(_ configuration: APIConfiguration) -> HTTPClient {
        if let executor = configuration.executor {
            return HTTPClient(eventLoopGroup: executor.loop, configuration: clientConfiguration(configuration))
        }
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration(configuration))
    }

    /// The shared client's settings (separate so that tests can check them).
    static func clientConfiguration(_ configuration: APIConfiguration) -> HTTPClient.Configuration {
        var config = HTTPClient.Configuration()
        config.timeout = HTTPClient.Configuration.Timeout(
            connect: .nanoseconds(configuration.connectTimeout.wholeNanoseconds),
            read: nil
        )
        // Redirects are followed by `send` itself, so that every `Location` passes `ServerURL` first
        // (the client's own redirect handling traps on a port above 65535).
        config.redirectConfiguration = .disallow
        config.decompression = .disabled
        config.connectionPool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(60))
        // A refused or failed connect fails the request at once (the pool would otherwise retry it
        // with backoff until the connect timeout, ~5 s per attempt).
        config.connectionPool.retryConnectionEstablishment = false
        config.httpVersion = .automatic
        // No spans: the default no-op tracer still parsed each request's URL a second time.
        config.tracing.tracer = nil
        return config
    }

    var host: String { configuration.baseURL.host ?? configuration.baseURL.absoluteString }

    /// One attempt's request as sent: method, URL, headers and body.
    struct Outgoing: Sendable {
        var method: HTTPMethod
        var url: String
        var headers: HTTPHeaders
        var body: RequestSpec.Body
    }

    /// Builds the request for one attempt (`bodyless`: a redirect turned it into a plain GET;
    /// `crossOrigin`: a redirect left the configured server, so no credentials go along).
    func makeRequest(_ spec: RequestSpec, url: String, bodyless: Bool = false, crossOrigin: Bool = false) -> Outgoing {
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: configuration.userAgent)
        headers.add(name: "Accept", value: spec.accept)
        for field in spec.headers where !(crossOrigin && field.name.lowercased() == "authorization") {
            headers.add(name: field.name, value: field.value)
        }
        if !crossOrigin, let bearer = configuration.bearerToken, !bearer.isEmpty,
            !headers.contains(name: "Authorization")
        {
            headers.add(name: "Authorization", value: "Bearer \(bearer)")
        }
        // `user:password@` in the server's URL goes out as Basic authentication (a token wins).
        if !crossOrigin, !headers.contains(name: "Authorization"),
            let basic = Self.basicAuthorization(configuration.baseURL)
        {
            headers.add(name: "Authorization", value: basic)
        }
        var request = Outgoing(
            method: bodyless ? .GET : spec.method,
            url: url,
            headers: headers,
            body: bodyless ? .none : spec.body
        )
        switch request.body {
        case .none:
            break
        case .json:
            request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        case .multipart(let upload):
            request.headers.replaceOrAdd(name: "Content-Type", value: upload.contentTypeHeader)
        }
        return request
    }

    /// `Basic …` for the credentials in `url` (percent-decoded), nil when it has none.
    static func basicAuthorization(_ url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let user = components.user,
            !user.isEmpty || !(components.password ?? "").isEmpty
        else { return nil }
        return "Basic " + Data((user + ":" + (components.password ?? "")).utf8).base64EncodedString()
    }

    /// Sends `request` over a socket and reads the whole response, its body bounded by the
    /// configured limit, before `deadline` (one deadline for head and body). Cancelling the calling
    /// task cancels the request.
    func execute(
        _ request: Outgoing,
        until deadline: ContinuousClock.Instant,
        started: ContinuousClock.Instant
    ) async throws -> ResponseCollector.Collected {
        if let keepAlive, request.method == .GET, case .none = request.body,
            let target = keepAlive.target(of: request.url),
            KeepAlivePool.sendsAsIs(request.headers)
        {
            return try await keepAlive.get(
                target,
                headers: request.headers,
                until: deadline,
                started: started,
                droppedStatuses: Self.redirectStatuses
            )
        }
        let client = self.client
        let body: HTTPClient.Body?
        switch request.body {
        case .none:
            body = nil
        case .json(let data):
            body = .bytes(data)
        case .multipart(let upload):
            // The file streams in chunks; a chunk is written when the connection took the last.
            let loop = client.eventLoopGroup.any()
            body = .stream(contentLength: upload.contentLength) { writer in
                let promise = loop.makePromise(of: Void.self)
                promise.completeWithTask {
                    for try await chunk in upload.chunks { try await writer.write(.byteBuffer(chunk)).get() }
                }
                return promise.futureResult
            }
        }
        let ahcRequest = try HTTPClient.Request(
            url: request.url,
            method: request.method,
            headers: request.headers,
            body: body
        )
        let collector = ResponseCollector(
            limit: configuration.maxBodyBytes,
            started: started,
            droppedStatuses: Self.redirectStatuses
        )
        let task = client.execute(
            request: ahcRequest,
            delegate: collector,
            eventLoop: .indifferent,
            deadline: Self.nioDeadline(deadline),
            logger: nil
        )
        return try await withTaskCancellationHandler {
            try await task.futureResult.get()
        } onCancel: {
            task.cancel()
        }
    }

    /// `deadline` on NIO's clock (a past one is now).
    static func nioDeadline(_ deadline: ContinuousClock.Instant) -> NIODeadline {
        .now() + .nanoseconds(max(0, (deadline - .now).wholeNanoseconds))
    }

    /// The most redirects one attempt follows.
    static let maxRedirects = 5

    /// Sends one attempt (following redirects, each `Location` checked) and reads the whole
    /// (bounded) body before the deadline.
    /// `firstURL` is `spec.url(base:)`, built once by the caller.
    func send(
        _ spec: RequestSpec,
        url firstURL: String,
        requestID: Int,
        attempt: Int
    ) async throws(BooksTrackError) -> RawResponse {
        var url = firstURL
        var masked = SecretMasking.maskURL(url)
        var request = makeRequest(spec, url: url)
        let timeout = spec.timeout ?? configuration.timeout
        let clock = ContinuousClock()
        let start = clock.now
        let deadlineInstant = start.advanced(by: timeout)
        do {
            if let problem = ServerURL.check(url, under: checkedBase) { throw Self.badURL(problem, url: masked) }
            try Task.checkCancellation()
            if let inProcess = configuration.inProcess,
                let raw = try await sendInProcess(
                    spec,
                    to: inProcess,
                    request: request,
                    masked: masked,
                    started: start,
                    until: deadlineInstant
                )
            {
                if let trace = configuration.trace {
                    trace(traceEvent(spec, request: request, raw: raw, requestID: requestID, attempt: attempt))
                }
                return raw
            }
            var visited: Set<String> = [url]
            var redirects = 0
            while true {
                let response = try await execute(request, until: deadlineInstant, started: start)
                let status = Int(response.head.status.code)
                if Self.redirectStatuses.contains(status), let location = response.head.headers.first(name: "location")
                {
                    // `--trace` shows each hop: the redirect under the URL that sent it.
                    if let trace = configuration.trace {
                        let hop = RawResponse(
                            status: status,
                            headers: response.head.headers,
                            body: response.body,
                            url: masked,
                            timeToHead: response.timeToHead,
                            duration: clock.now - start
                        )
                        trace(
                            traceEvent(
                                spec,
                                request: request,
                                raw: hop,
                                requestID: requestID,
                                attempt: attempt,
                                url: masked
                            )
                        )
                    }
                    redirects += 1
                    let next = try Self.redirectTarget(location, from: url, masked: masked)
                    if redirects > Self.maxRedirects || visited.contains(next) {
                        throw BooksTrackError(
                            code: .networkError,
                            kind: .other,
                            message: redirects > Self.maxRedirects
                                ? "The server redirected more than \(Self.maxRedirects) times; not followed."
                                : "The server redirected in a loop; not followed.",
                            detail: "redirect \(status) to \(SecretMasking.maskURL(next))",
                            httpStatus: status,
                            retryable: false,
                            url: masked
                        )
                    }
                    visited.insert(next)
                    let becomesGET =
                        status == 303
                        || ((status == 301 || status == 302) && spec.method != .GET && spec.method != .HEAD)
                    if !becomesGET, case .multipart = spec.body {
                        throw BooksTrackError(
                            code: .networkError,
                            kind: .other,
                            message: "The server redirected the upload elsewhere; it was not sent again.",
                            detail: "redirect \(status) to \(SecretMasking.maskURL(next))",
                            httpStatus: status,
                            retryable: false,
                            url: masked
                        )
                    }
                    let crossOrigin = !Self.sameOrigin(next, configuration.baseURL)
                    url = next
                    masked = SecretMasking.maskURL(next)
                    request = makeRequest(spec, url: next, bodyless: becomesGET, crossOrigin: crossOrigin)
                    continue
                }
                var raw = RawResponse(
                    status: status,
                    headers: response.head.headers,
                    body: response.body,
                    url: masked,
                    timeToHead: response.timeToHead,
                    duration: clock.now - start
                )
                raw.crossedOrigin = redirects > 0 && !Self.sameOrigin(url, configuration.baseURL)
                if let trace = configuration.trace {
                    trace(
                        traceEvent(
                            spec,
                            request: request,
                            raw: raw,
                            requestID: requestID,
                            attempt: attempt,
                            url: masked
                        )
                    )
                }
                return raw
            }
        } catch {
            var mapped: BooksTrackError
            if let own = error as? BooksTrackError {
                mapped = own
            } else if error is ResponseBodyTooLarge || error is InProcessBodyTooLarge {
                mapped = Self.tooLarge(limit: configuration.maxBodyBytes, url: masked, status: nil)
            } else if Task.isCancelled {
                mapped = .cancelled(url: masked)
            } else {
                mapped = .fromTransport(error, url: masked, host: host, timeout: timeout)
            }
            mapped.url = mapped.url ?? masked
            if let trace = configuration.trace {
                var event = traceEvent(
                    spec,
                    request: request,
                    raw: nil,
                    requestID: requestID,
                    attempt: attempt,
                    url: masked
                )
                event.duration = clock.now - start
                event.error = SecretMasking.maskText(
                    mapped.message + (mapped.detail.isEmpty ? "" : " (\(mapped.detail))")
                )
                trace(event)
            }
            throw mapped
        }
    }

    /// Answers `request` from the server in this process, within the same deadline and body bound
    /// as a socket; `nil` for an upload, which goes to the socket.
    func sendInProcess(
        _ spec: RequestSpec,
        to responder: any InProcessResponder,
        request: Outgoing,
        masked: String,
        started: ContinuousClock.Instant,
        until deadline: ContinuousClock.Instant
    ) async throws -> RawResponse? {
        let body: ByteBuffer?
        switch spec.body {
        case .none: body = nil
        case .json(let data): body = ByteBuffer(data: data)
        case .multipart:
            // Uploads stream from the file over the socket.
            try await responder.openSocket(for: masked)
            return nil
        }
        var basePath = configuration.baseURL.path
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let target = basePath + spec.target
        let limit = configuration.maxBodyBytes
        let method = request.method.rawValue
        let headers = request.headers
        let answer = try await Self.within(deadline, on: configuration.executor) {
            try await responder.respond(method: method, target: target, headers: headers, body: body, bodyLimit: limit)
        }
        let elapsed = ContinuousClock.now - started
        return RawResponse(
            status: answer.status,
            headers: answer.headers,
            body: answer.body,
            url: masked,
            timeToHead: elapsed,
            duration: elapsed
        )
    }

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The absolute, checked URL a `Location` points to.
    static func redirectTarget(
        _ location: String,
        from current: String,
        masked: String
    ) throws(BooksTrackError) -> String {
        let base = URL(string: current)
        let resolved = URL(string: location, relativeTo: base)?.absoluteString ?? location
        switch ServerURL.parse(resolved) {
        case .success(let url):
            return url.absoluteString
        case .failure(let problem):
            throw BooksTrackError(
                code: .networkError,
                kind: .other,
                message: "The server redirected to an unusable address: \(problem.message).",
                detail: "Location: \(SecretMasking.maskURL(ServerURL.printable(location)))",
                retryable: false,
                url: masked
            )
        }
    }

    /// Same scheme, host and port (credentials stay with the configured server).
    static func sameOrigin(_ text: String, _ base: URL) -> Bool {
        guard let url = URL(string: text) else { return false }
        func port(_ u: URL) -> Int? { u.port ?? (u.scheme?.lowercased() == "https" ? 443 : 80) }
        return url.scheme?.lowercased() == base.scheme?.lowercased()
            && url.host?.lowercased() == base.host?.lowercased()
            && port(url) == port(base)
    }

    /// A request URL `ServerURL` refused.
    static func badURL(_ problem: ServerURL.Problem, url: String) -> BooksTrackError {
        BooksTrackError(
            code: "INVALID_URL",
            kind: .invalidInput,
            message: "The server address is unusable: \(problem.message).",
            detail: problem.message,
            retryable: false,
            url: url
        )
    }

    static func tooLarge(limit: Int, url: String, status: Int?) -> BooksTrackError {
        let size = limit >= 1024 * 1024 ? "\(limit / (1024 * 1024)) MB" : "\(max(1, limit / 1024)) KB"
        return BooksTrackError(
            code: .invalidResponse,
            kind: .bodyTooLarge,
            message: "The response is larger than the client's limit of \(size).",
            detail: "body exceeded \(limit) bytes",
            httpStatus: status,
            url: url
        )
    }

    /// `url`: the (masked) URL this request went to (after redirects); nil: the request's own.
    func traceEvent(
        _ spec: RequestSpec,
        request: Outgoing,
        raw: RawResponse?,
        requestID: Int,
        attempt: Int,
        url: String? = nil
    ) -> TraceEvent {
        let requestHeaders = SecretMasking.maskHeaders(
            request.headers.map { HeaderField(name: $0.name, value: $0.value) }
        )
        var requestBody: String?
        switch spec.body {
        case .none: requestBody = nil
        case .json(let data): requestBody = Self.printable(data)
        case .multipart(let upload):
            requestBody =
                "<multipart/form-data: \(upload.fieldName)=@\(upload.fileName) (\(upload.fileSize) bytes), "
                + "Content-Length \(upload.contentLength)>"
        }
        return TraceEvent(
            phase: .response,
            requestID: requestID,
            attempt: attempt,
            method: spec.method.rawValue,
            url: url ?? SecretMasking.maskURL(spec.url(base: configuration.baseURL)),
            status: raw?.status,
            duration: raw?.duration ?? .zero,
            timeToHead: raw?.timeToHead,
            requestHeaders: requestHeaders,
            requestBody: requestBody,
            responseHeaders: SecretMasking.maskHeaders(raw?.headerFields ?? []),
            responseBody: raw.map { Self.printable(Data(buffer: $0.body, byteTransferStrategy: .noCopy)) }
        )
    }

    /// Body text for traces: masked, at most 4 KB.
    static func printable(_ data: Data, limit: Int = 4096) -> String {
        let text = String(decoding: data.prefix(limit), as: UTF8.self)
        let suffix = data.count > limit ? "… (\(data.count) bytes)" : ""
        return SecretMasking.maskText(text) + suffix
    }
}

/// An `HTTPClient` made on first use, shut down by `shutDown()` (a client asked for after that is
/// made shut down, so its requests fail as on a closed client and nothing is left running).
final class LazyHTTPClient: Sendable {
    private let make: @Sendable () -> HTTPClient
    private let state = Mutex<(client: HTTPClient?, closed: Bool)>((nil, false))

    init(_ make: @escaping @Sendable () -> HTTPClient) { self.make = make }

    var client: HTTPClient {
        let (client, closedAlready) = state.withLock { state -> (HTTPClient, Bool) in
            if let client = state.client { return (client, false) }
            let new = make()
            state.client = new
            return (new, state.closed)
        }
        if closedAlready { Task { try? await client.shutdown() } }
        return client
    }

    /// Shuts the client down if one was made.
    func shutDown() async {
        let client = state.withLock { state -> HTTPClient? in
            state.closed = true
            return state.client
        }
        try? await client?.shutdown()
    }
}
