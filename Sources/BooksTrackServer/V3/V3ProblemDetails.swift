import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird

/// One field of a v3 validation failure (`errors[]` of a problem), as the Zod hook writes it.
struct V3FieldError: Sendable, Hashable {
    var field: String
    var message: String
    var code: String

    var json: JSONValue { ["field": .string(field), "message": .string(message), "code": .string(code)] }
}

/// An RFC 9457 problem of the v3 routes, `application/problem+json`
/// (bendv3 `packages/schemas/src/errors.ts` `createProblemDetails`, read at 4c07745; the v3 routes of
/// `src/api-v3/index.ts` @ e40ae5d answer every failure with it):
/// `{type, title, status, detail, instance, code, retryable, retryAfterMs?, errors?, metadata: {timestamp, requestId}}`.
///
/// v3 handlers return `response(for:)` rather than throwing, so that the route's rate limiter (which
/// turns unknown errors into `INTERNAL_ERROR`) never sees a problem; errors thrown by middlewares
/// (rate limits, faults) on a `/v3/` path are turned into problems by `ResponseHeadersMiddleware`.
struct V3Problem: Error, Sendable {
    var code: String
    var status: Int
    var detail: String
    var retryAfterMs: Int?
    var errors: [V3FieldError]?
    /// Extra headers (`Retry-After`, rate-limit headers).
    var headers: HTTPFields = [:]

    init(
        _ code: ErrorCode,
        _ detail: String,
        status: Int? = nil,
        retryAfterMs: Int? = nil,
        errors: [V3FieldError]? = nil
    ) {
        self.code = code.rawValue
        self.status = status ?? Self.statusMap[code.rawValue] ?? code.httpStatus ?? 500
        self.detail = detail
        self.retryAfterMs = retryAfterMs
        self.errors = errors
    }

    /// The Zod validation hook's answer: 400 `INVALID_REQUEST` "Validation failed" with `errors[]`.
    static func validation(_ errors: [V3FieldError]) -> V3Problem {
        V3Problem(.invalidRequest, "Validation failed", errors: errors)
    }

    /// A one-field validation failure.
    static func validation(field: String, _ message: String, code: String = "custom") -> V3Problem {
        validation([V3FieldError(field: field, message: message, code: code)])
    }

    static func notFound(_ detail: String) -> V3Problem { V3Problem(.notFound, detail) }

    /// A contract error (thrown by a middleware or a shared helper) as a problem. A `CIRCUIT_OPEN`
    /// keeps `retryAfterMs` but loses `Retry-After`: v3's getBookRoute (index.ts @ e40ae5d) sends the
    /// problem alone.
    init(_ error: APIError) {
        // errors.ts maps FEATURE_NOT_AVAILABLE to 501 (the contract's envelope says 503).
        let status = error.code == .featureNotAvailable ? 501 : Int(error.status.code)
        self.init(error.code, error.message, status: status, retryAfterMs: error.retryAfterMs)
        headers = error.headers
        if error.code == .circuitOpen { headers[.retryAfter] = nil }
    }

    // MARK: errors.ts maps

    /// `ERROR_STATUS_MAP` (plus `CONFLICT`, which the cancel routes send).
    static let statusMap: [String: Int] = [
        "MISSING_PARAMETER": 400, "INVALID_REQUEST": 400, "INVALID_ISBN": 400, "INVALID_QUERY": 400,
        "INVALID_FILE": 400, "FILE_TOO_LARGE": 413, "BATCH_TOO_LARGE": 413, "EMPTY_BATCH": 400, "NOT_FOUND": 404,
        "UNAUTHORIZED": 401, "FORBIDDEN": 403, "RATE_LIMIT_EXCEEDED": 429, "CIRCUIT_OPEN": 503,
        "PROVIDER_ERROR": 502, "PROVIDER_TIMEOUT": 504, "CACHE_ERROR": 500, "INTERNAL_ERROR": 500,
        "API_ERROR": 500, "NETWORK_ERROR": 502, "TIMEOUT": 504, "FEATURE_NOT_AVAILABLE": 501, "CONFLICT": 409,
    ]

    /// `ERROR_TITLE_MAP`.
    static let titleMap: [String: String] = [
        "MISSING_PARAMETER": "Missing Required Parameter", "INVALID_REQUEST": "Invalid Request",
        "INVALID_ISBN": "Invalid ISBN Format", "INVALID_QUERY": "Invalid Search Query", "INVALID_FILE": "Invalid File",
        "FILE_TOO_LARGE": "File Too Large", "BATCH_TOO_LARGE": "Batch Size Exceeded", "EMPTY_BATCH": "Empty Batch",
        "NOT_FOUND": "Resource Not Found", "UNAUTHORIZED": "Authentication Required", "FORBIDDEN": "Access Denied",
        "RATE_LIMIT_EXCEEDED": "Rate Limit Exceeded", "CIRCUIT_OPEN": "Service Temporarily Unavailable",
        "PROVIDER_ERROR": "External Service Error", "PROVIDER_TIMEOUT": "External Service Timeout",
        "CACHE_ERROR": "Cache Error", "INTERNAL_ERROR": "Internal Server Error", "API_ERROR": "API Error",
        "NETWORK_ERROR": "Network Error", "TIMEOUT": "Request Timeout",
        "FEATURE_NOT_AVAILABLE": "Feature Not Available", "CONFLICT": "Conflict",
    ]

    /// `RETRYABLE_ERRORS`.
    static let retryableCodes: Set<String> = [
        "RATE_LIMIT_EXCEEDED", "CIRCUIT_OPEN", "PROVIDER_ERROR", "PROVIDER_TIMEOUT", "CACHE_ERROR", "NETWORK_ERROR",
        "TIMEOUT",
    ]

    /// The problem's JSON; `instance` is the request URL (`c.req.url`).
    func body(instance: String, now: Date) -> JSONValue {
        var object: [String: JSONValue] = [
            "type": .string(
                "https://api.oooefam.net/errors/" + code.lowercased().replacingOccurrences(of: "_", with: "-")
            ),
            "title": .string(Self.titleMap[code] ?? "Error"),
            "status": .number(Double(status)),
            "detail": .string(detail),
            "instance": .string(instance),
            "code": .string(code),
            "retryable": .bool(Self.retryableCodes.contains(code)),
            "metadata": ["timestamp": .string(ISO8601.string(from: now)), "requestId": .string(V3Wire.requestID())],
        ]
        if let retryAfterMs { object["retryAfterMs"] = .number(Double(retryAfterMs)) }
        if let errors { object["errors"] = .array(errors.map(\.json)) }
        return .object(object)
    }

    /// The problem as a response to `request`: `application/problem+json`, except in the production
    /// dialect, whose handlers send it with Hono's `c.json` (`application/json`, index.ts @ e40ae5d).
    func response(to request: Request, now: Date, dialect: ServerDialect) -> Response {
        var fields = headers
        fields[.contentType] = dialect == .production ? "application/json" : "application/problem+json"
        let instance = V3Wire.url(of: request, dialect: dialect)
        let data = (try? JSONCoding.encoder().encode(body(instance: instance, now: now))) ?? Data()
        return Response(
            status: .canonical(status),
            headers: fields,
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

/// Shared pieces of the v3 wire.
enum V3Wire {
    /// The version production's capabilities report (`src/api-v3/discovery.ts` @ e40ae5d).
    static let productionVersion = "3.4.3"

    /// `metadata.requestId`.
    static func requestID() -> String { UUID().uuidString.lowercased() }

    /// The request target (path and query), the problems' `instance`.
    static func instance(of request: Request) -> String {
        request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
    }

    /// The request's absolute URL (`c.req.url`): `http://` here, `https://` in the production dialect.
    static func url(of request: Request, dialect: ServerDialect) -> String {
        "\(origin(of: request, dialect: dialect))\(instance(of: request))"
    }

    /// `scheme://host[:port]` of the request (production is only reached over https).
    static func origin(of request: Request, dialect: ServerDialect) -> String {
        "\(dialect == .production ? "https" : "http")://\(request.head.authority ?? "localhost")"
    }

    /// Whether `path` belongs to the v3 routes.
    static func isV3(_ path: String) -> Bool { path == "/v3" || path.hasPrefix("/v3/") }

    /// `^\d{10}(\d{3})?$`, the ISBN pattern of every v3 schema (an ISBN-10 ending in X is refused).
    static func isISBNPattern(_ text: String) -> Bool {
        (text.utf8.count == 10 || text.utf8.count == 13) && text.utf8.allSatisfy { (48...57).contains($0) }
    }

    /// The 13-digit form of a pattern-valid ISBN (check digits are not verified, as in production).
    static func isbn13(_ text: String) -> String {
        guard text.utf8.count == 10 else { return text }
        let core = "978" + text.prefix(9)
        let sum = core.utf8.enumerated().reduce(0) { sum, item in
            sum + Int(item.element - 48) * (item.offset % 2 == 0 ? 1 : 3)
        }
        return core + String((10 - sum % 10) % 10)
    }

    /// `{success: true, data, metadata, _links?}` with the v3 metadata (`timestamp`, `requestId`, extras).
    static func success(
        _ data: JSONValue,
        status: HTTPResponse.Status = .ok,
        now: Date,
        metadata extra: [String: JSONValue] = [:],
        links: JSONValue? = nil,
        headers: HTTPFields = [:],
        extraTop: [String: JSONValue] = [:]
    ) -> Response {
        var metadata: [String: JSONValue] = [
            "timestamp": .string(ISO8601.string(from: now)), "requestId": .string(requestID()),
        ]
        metadata.merge(extra) { _, new in new }
        var object: [String: JSONValue] = ["success": true, "data": data, "metadata": .object(metadata)]
        if let links { object["_links"] = links }
        object.merge(extraTop) { _, new in new }
        return json(.object(object), status: status, headers: headers)
    }

    /// A JSON body.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        let data = (try? JSONCoding.encoder().encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `{href, rel, method}` (a HATEOAS link of index.ts / jobs/common.ts `createJobLinks` @ 00c2471).
    static func link(_ href: String, rel: String = "self", method: String = "GET") -> JSONValue {
        ["href": .string(href), "rel": .string(rel), "method": .string(method)]
    }
}
