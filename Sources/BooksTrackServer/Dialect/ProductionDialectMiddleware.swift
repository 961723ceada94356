import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import NIOFoundationEssentialsCompat

/// `--dialect production`: the outermost middleware. It answers the deployed backend's route gaps and
/// refusals itself, and rewrites what the contract server produced into production's bodies, statuses
/// and headers (see `ProductionDialect`). The WebSocket side lives in the job routes'
/// `/ws/progress` handler (`ProductionDialect.webSocketMessage`, one-time query tokens).
struct ProductionDialectMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let services: ServerServices
    var state: ProductionDialectState { services.dialectState }

    /// Largest body this middleware buffers to rewrite (JSON answers and request bodies).
    static let bufferLimit = 8 * 1024 * 1024

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        let parts = path.split(separator: "/").map(String.init)
        let method = request.method
        let timestamp = ISO8601.string(from: services.now())
        if let early = try await routeGap(request, parts: parts, timestamp: timestamp) { return early }

        var forwarded = request
        var batchBody: JSONValue?
        if method == .post, parts == ["api", "v2", "books", "enrich"] || Self.isBatch(parts) {
            let buffer: ByteBuffer
            do {
                buffer = try await CSVUpload.collect(request.body, limit: services.configuration.maxJSONBodyBytes)
            } catch {
                return try Self.json(
                    ProductionDialect.failure("Request body too large", code: "INVALID_REQUEST", timestamp: timestamp),
                    status: .contentTooLarge,
                    errorCode: "INVALID_REQUEST"
                )
            }
            let body = try? JSONCoding.decoder().decode(JSONValue.self, from: Data(buffer.readableBytesView))
            let refusal =
                Self.isBatch(parts)
                ? ProductionDialect.batchRefusal(body, timestamp: timestamp)
                : ProductionDialect.enrichRefusal(body, timestamp: timestamp)
            if let refusal {
                return try Self.json(refusal, status: .badRequest, errorCode: refusal["error"]?["code"]?.stringValue)
            }
            batchBody = body
            forwarded.body = RequestBody(buffer: buffer)
        }

        var response = try await next(forwarded, context)
        response = try await rateLimitHeaders(response, request: request)
        guard response.status != .tooManyRequests else { return response }

        switch (method, parts.count) {
        case (.get, _) where parts == ["api", "v2", "capabilities"] && response.status == .ok:
            return try await rewrite(response) { ProductionDialect.capabilities(contract: $0, timestamp: timestamp) }
        case (.get, 3)
        where parts[0] == "v1" && parts[1] == "search" && ["title", "advanced", "isbn"].contains(parts[2])
            && response.status == .ok:
            return try await rewrite(response, ProductionDialect.bookSearch)
        case (.get, _) where parts == ["v1", "search", "similar"] && response.status == .ok:
            let query = request.uri.queryParameters
            let isbn = query.get("isbn").map { String($0) } ?? ""
            let limit = query.get("limit").flatMap { Int($0) } ?? 10
            return try await rewrite(response) { ProductionDialect.similar($0, isbn: isbn, limit: limit) }
        case (.get, _) where parts == ["api", "v2", "search"] && response.status == .ok:
            let mode = request.uri.queryParameters.get("mode").map { String($0).lowercased() } ?? "text"
            return try await rewrite(response) { ProductionDialect.v2Search($0, mode: mode) }
        case (.get, _) where parts == ["api", "v2", "recommendations", "weekly"]:
            let weekOf = String(timestamp.prefix(10))
            if response.status == .notFound {
                return try Self.json(ProductionDialect.weekly(nil, weekOf: weekOf, timestamp: timestamp), status: .ok)
            }
            guard response.status == .ok else { return response }
            return try await rewrite(response) { ProductionDialect.weekly($0, weekOf: weekOf, timestamp: timestamp) }
        case (.post, _) where Self.isBatch(parts) && response.status == .accepted:
            if let id = batchBody?["jobId"]?.stringValue { state.noteBatchJob(id) }
            return try await rewrite(response, ProductionDialect.batchAccepted)
        case (.post, _) where parts == ["api", "v2", "imports"] && response.status == .accepted:
            return try await rewrite(response, ProductionDialect.importAccepted)
        case (.get, 4) where parts[0] == "v1" && parts[1] == "jobs" && parts[3] == "results" && response.status == .ok:
            guard state.isBatchJob(parts[2]) else { return response }
            return try await rewrite(response, ProductionDialect.batchResults)
        case (.post, _)
        where parts == ["api", "token", "refresh"] && !(200..<300).contains(response.status.code)
            && response.status.code != 429:
            let status = response.status.code
            let contract = try await Self.collectJSON(response)
            let jobID = contract?["error"]?["details"]?["jobId"]?.stringValue ?? ""
            let body = ProductionDialect.tokenRefreshFailure(
                status: status,
                contract: contract ?? nil,
                jobID: jobID,
                timestamp: timestamp
            )
            return try Self.json(body, status: .unauthorized, errorCode: "UNAUTHORIZED")
        case (.get, 5)
        where parts[0] == "api" && parts[2] == "imports" && parts[4] == "stream" && response.status == .ok:
            let rewriter = ProductionDialect.SharedSSERewriter()
            response.body = response.body.map { buffer in
                ByteBuffer(string: rewriter.rewrite(String(buffer: buffer)))
            }
            return response
        default:
            return response
        }
    }

    /// Routes the deployed backend lacks or cannot serve, answered before the contract server sees them.
    private func routeGap(_ request: Request, parts: [String], timestamp: String) async throws -> Response? {
        let method = request.method
        let path = request.uri.path
        func missing() throws -> Response {
            try Self.json(
                ProductionDialect.endpointNotFound(method: method.rawValue, path: path, timestamp: timestamp),
                status: .notFound,
                errorCode: "NOT_FOUND"
            )
        }
        // router.ts: no author search (the capabilities point at /v1/search/advanced).
        if method == .get, parts == ["v1", "search", "author"] { return try missing() }
        // router.ts 078b7da: no v2 cancel route; results only at /v1/jobs/:id/results.
        if method == .delete, parts.count == 5, parts.starts(with: ["api", "v2", "jobs"]), parts[4] == "cancel" {
            return try missing()
        }
        if method == .get, parts.count == 5, parts.starts(with: ["api", "v2", "imports"]), parts[4] == "results" {
            return try missing()
        }
        // router.ts 758fe1a DELETE /v1/jobs/:jobId: the token is looked up in the legacy progress object,
        // which holds no job created by the batch or import handlers: "Job not found".
        if method == .delete, parts.count == 3, parts.starts(with: ["v1", "jobs"]) {
            guard JobRoutes.bearerToken(request.headers[.authorization]) != nil else {
                return try Self.json(
                    ProductionDialect.failure(
                        "Authorization header required",
                        code: "UNAUTHORIZED",
                        details: ["endpoint": "DELETE /v1/jobs/:jobId"],
                        timestamp: timestamp
                    ),
                    status: .unauthorized,
                    errorCode: "UNAUTHORIZED"
                )
            }
            return try Self.json(
                ProductionDialect.failure(
                    "Job not found",
                    code: "NOT_FOUND",
                    details: ["jobId": .string(parts[2])],
                    timestamp: timestamp
                ),
                status: .notFound,
                errorCode: "NOT_FOUND"
            )
        }
        // websocket-connection.ts: a refused upgrade is a plain-text 401 (the WebSocket router declined it).
        if method == .get, parts == ["ws", "progress"] {
            let query = request.uri.queryParameters
            guard let jobID = query.get("jobId"), !jobID.isEmpty else {
                return try Self.json(
                    ProductionDialect.failure(
                        "Missing jobId parameter",
                        code: "MISSING_PARAMETER",
                        details: ["parameter": "jobId"],
                        timestamp: timestamp
                    ),
                    status: .badRequest,
                    errorCode: "MISSING_PARAMETER"
                )
            }
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                return Self.text(
                    "Expected Upgrade: websocket",
                    status: HTTPResponse.Status(code: 426, reasonPhrase: "Upgrade Required")
                )
            }
            if let token = query.get("token"), state.isConsumed(String(token)) {
                return Self.text(
                    "Token already consumed. Only one connection per token is allowed.",
                    status: .unauthorized
                )
            }
            return Self.text("Unauthorized", status: .unauthorized)
        }
        // sse-stream.ts reads the refactored job store; batch jobs live in the legacy progress object.
        if method == .get, parts.count == 5, parts.starts(with: ["api", "v2", "imports"]), parts[4] == "stream",
            state.isBatchJob(parts[3]),
            request.headers[.accept]?.contains("text/event-stream") == true
        {
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-cache, no-store, must-revalidate"
            return Response(
                status: .ok,
                headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: ProductionDialect.sseJobNotFound(jobID: parts[3])))
            )
        }
        return nil
    }

    /// rate-limiter.ts: `X-RateLimit-*` only on the 429, `Reset` in epoch milliseconds, and the
    /// limiter's own non-envelope body. Successful answers carry none.
    private func rateLimitHeaders(_ response: Response, request: Request) async throws -> Response {
        var response = response
        guard response.status == .tooManyRequests else {
            for name in [HTTPField.Name.xRateLimitLimit, .xRateLimitRemaining, .xRateLimitReset, .xRateLimitClass] {
                response.headers[name] = nil
            }
            return response
        }
        let contract = try await Self.collectJSON(response)
        let details = contract?["error"]?["details"]
        guard contract?["error"]?["code"]?.stringValue == "RATE_LIMIT_EXCEEDED", let details,
            let retryAfter = details["retryAfter"]?.intValue
        else {
            response.body = .init(
                byteBuffer: ByteBuffer(bytes: (try? JSONCoding.encoder().encode(contract ?? nil)) ?? Data())
            )
            return response
        }
        let limitClass = details["limitClass"]?.stringValue
        // router.ts passes `{limit: 30, window: 60}` as the polling routes' maximum.
        let limit: JSONValue = limitClass == "jobs" ? ["limit": 30, "window": 60] : details["requestsLimit"] ?? 100
        let body = ProductionDialect.rateLimited(
            retryAfter: retryAfter,
            limit: limit,
            remaining: 0,
            endpoint: request.uri.path
        )
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.retryAfter] = String(retryAfter)
        headers[.xRateLimitLimit] = ProductionDialect.headerText(limit)
        headers[.xRateLimitRemaining] = "0"
        let resetMs = Int64((services.now().timeIntervalSince1970 + Double(retryAfter)) * 1000)
        headers[.xRateLimitReset] = String(resetMs)
        let data = try JSONCoding.encoder().encode(body)
        return Response(status: .tooManyRequests, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: Helpers

    static func isBatch(_ parts: [String]) -> Bool {
        parts == ["api", "batch-enrich"] || parts == ["v1", "enrichment", "batch"]
    }

    private func rewrite(_ response: Response, _ transform: (JSONValue) -> JSONValue) async throws -> Response {
        guard let value = try await Self.collectJSON(response) else { return response }
        var rewritten = try Self.json(transform(value), status: response.status)
        for field in response.headers where field.name != .contentLength && rewritten.headers[field.name] == nil {
            rewritten.headers.append(field)
        }
        return rewritten
    }

    /// The JSON of a buffered answer (nil if it is not JSON).
    static func collectJSON(_ response: Response) async throws -> JSONValue? {
        let collected = try await response.collectBody(limit: bufferLimit)
        guard !collected.overflowed else { return nil }
        return try? JSONCoding.decoder().decode(JSONValue.self, from: Data(buffer: collected.buffer))
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status, errorCode: String? = nil) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.xResponseFormat] = "v2.0"
        if let errorCode { headers[.xErrorType] = errorCode }
        let data = try JSONCoding.encoder().encode(value)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
