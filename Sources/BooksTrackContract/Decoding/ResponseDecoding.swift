import Foundation

/// The outcome of decoding one HTTP response body with `ResponseDecoding`.
package enum DecodedResponse<T: Sendable>: Sendable {
    /// The payload (`metadata` is nil for bare bodies).
    case success(T, metadata: ResponseMetadata?)
    /// The server reported an error, in any of the accepted shapes.
    case failure(APIErrorInfo, metadata: ResponseMetadata?)
    /// The body is empty or not JSON (a proxy's HTML 502 page, an empty 503).
    case notJSON(status: Int, snippet: String)
    /// JSON of the wrong shape for `T`; `failure` keeps the coding path.
    case undecodable(status: Int, failure: DecodingFailure, snippet: String)

    /// The payload, if any.
    package var value: T? {
        if case .success(let v, _) = self { return v }
        return nil
    }

    /// The metadata, if the body carried an envelope.
    package var metadata: ResponseMetadata? {
        switch self {
        case .success(_, let m), .failure(_, let m): return m
        default: return nil
        }
    }

    /// Every non-success outcome as one `APIErrorInfo` (non-JSON bodies map by status; wrong-shape
    /// JSON becomes `INVALID_RESPONSE`).
    package var errorInfo: APIErrorInfo? {
        switch self {
        case .success: return nil
        case .failure(let info, _): return info
        case .notJSON(let status, let snippet):
            let code = (200..<300).contains(status) ? ErrorCode.invalidResponse : ErrorCode(httpStatus: status)
            let what = snippet.isEmpty ? "an empty body" : "a non-JSON body (\(snippet))"
            return APIErrorInfo(
                code: code,
                message: "The server answered HTTP \(status) with \(what).",
                retryable: code == .invalidResponse ? false : nil,
                httpStatus: status
            )
        case .undecodable(let status, let failure, _):
            return APIErrorInfo(
                code: .invalidResponse,
                message: "Unexpected response shape \(failure)",
                retryable: false,
                httpStatus: status
            )
        }
    }

    /// The payload or the normalized error.
    package func get() throws(APIErrorInfo) -> T {
        if case .success(let v, _) = self { return v }
        // errorInfo is non-nil for every other case.
        throw errorInfo ?? APIErrorInfo(code: .invalidResponse, message: "no payload", httpStatus: 0)
    }
}

/// Tolerant decoding of response bodies (client side; docs/contract.md §1).
///
/// Accepts the stand-in envelope, the older envelope without `success` (and the legacy `meta` name
/// for `metadata`), `provider`/`retryAfterMs`
/// at the top of `error` or in `error.details`, the rate limiter's non-envelope 429
/// (`{"error": "<text>", "code", "details": {retryAfter, requestsRemaining, ...}}`), bare bodies,
/// and empty or HTML bodies. Never throws.
package enum ResponseDecoding {
    /// Decodes `T` from an enveloped or bare body.
    package static func decode<T: Decodable & Sendable>(
        _ type: T.Type,
        from body: Data,
        status: Int
    ) -> DecodedResponse<T> {
        // Fast path, one pass: the canonical success envelope (`success: true`, `data`, `metadata`,
        // no `error`) on a 2xx, read by `JSONTreeDecoding` (which gives `JSONDecoder`'s result or
        // none). Anything else — or anything that fails to decode — takes the tolerant path below,
        // which reads the body with `JSONDecoder` as a JSON tree first.
        if (200..<300).contains(status), let envelope = JSONTreeDecoding.decode(SuccessEnvelope<T>.self, from: body) {
            return .success(envelope.data, metadata: envelope.metadata)
        }
        let decoder = JSONCoding.decoder()
        guard let root = JSONValue.parse(body) else {
            return .notJSON(status: status, snippet: snippet(of: body))
        }
        let isErrorStatus = !(200..<300).contains(status)
        if case .object(let obj) = root {
            let metadata = (obj["metadata"] ?? obj["meta"]).flatMap { decodeValue(ResponseMetadata.self, from: $0) }
            if let text = obj["error"]?.stringValue {
                return .failure(errorInfo(fromRateLimiter: obj, text: text, status: status), metadata: metadata)
            }
            if let errObj = obj["error"]?.objectValue {
                return .failure(errorInfo(fromErrorObject: errObj, status: status), metadata: metadata)
            }
            if obj["success"]?.boolValue == false || (isErrorStatus && isEnvelope(obj)) {
                return .failure(errorInfo(status: status, message: obj["message"]?.stringValue), metadata: metadata)
            }
            if isEnvelope(obj) {
                do {
                    let box = try decoder.decode(DataBox<T>.self, from: body)
                    return .success(box.value, metadata: metadata)
                } catch {
                    return .undecodable(status: status, failure: DecodingFailure(error), snippet: snippet(of: body))
                }
            }
            if isErrorStatus, let problem = errorInfo(fromProblemDetails: obj, status: status) {
                return .failure(problem, metadata: metadata)
            }
            if isErrorStatus {
                let message = obj["message"]?.stringValue ?? obj["detail"]?.stringValue
                var info = errorInfo(status: status, message: message)
                if let c = obj["code"]?.stringValue {
                    info.code = ErrorCode(c)
                    info.retryable = info.code.defaultRetryable
                }
                return .failure(info, metadata: nil)
            }
        } else if isErrorStatus {
            return .failure(errorInfo(status: status, message: root.stringValue), metadata: nil)
        }
        do {
            return .success(try decoder.decode(T.self, from: body), metadata: nil)
        } catch {
            return .undecodable(status: status, failure: DecodingFailure(error), snippet: snippet(of: body))
        }
    }

    /// True when an object looks like an envelope rather than a bare payload.
    static func isEnvelope(_ obj: [String: JSONValue]) -> Bool {
        if obj["success"]?.boolValue != nil { return true }
        guard obj["data"] != nil else { return false }
        return obj["metadata"] != nil || obj["meta"] != nil || obj["error"] != nil || obj.count == 1
    }

    static func errorInfo(fromErrorObject e: [String: JSONValue], status: Int) -> APIErrorInfo {
        let details = e["details"]?.objectValue ?? [:]
        let code = (e["code"]?.stringValue).map(ErrorCode.init(rawValue:)) ?? ErrorCode(httpStatus: status)
        let retryAfterMs =
            e["retryAfterMs"]?.intValue ?? details["retryAfterMs"]?.intValue
            ?? (e["retryAfter"] ?? details["retryAfter"])?.doubleValue.map { Int(($0 * 1000).rounded()) }
        return APIErrorInfo(
            code: code,
            message: e["message"]?.stringValue ?? e["error"]?.stringValue ?? code.userMessage(),
            retryable: e["retryable"]?.boolValue ?? details["retryable"]?.boolValue,
            retryAfterMs: retryAfterMs,
            provider: e["provider"]?.stringValue ?? details["provider"]?.stringValue,
            requestsRemaining: details["requestsRemaining"]?.intValue,
            requestsLimit: details["requestsLimit"]?.intValue,
            details: details,
            httpStatus: status
        )
    }

    /// RFC 9457 problem details, v3's every error (bendv3 `packages/schemas/src/errors.ts`
    /// `createProblemDetails`): `{type, title, status, detail, instance, code, retryable,
    /// retryAfterMs, errors: [{field, message, code}], metadata}`. Recognized by a numeric `status`
    /// with `title` or `type`; nil for any other object.
    /// The most field errors of a problem that are read and kept.
    static let maxFieldErrors = 20

    static func errorInfo(fromProblemDetails obj: [String: JSONValue], status: Int) -> APIErrorInfo? {
        guard obj["status"]?.doubleValue != nil, obj["title"]?.stringValue != nil || obj["type"]?.stringValue != nil
        else { return nil }
        let code = (obj["code"]?.stringValue).map(ErrorCode.init(rawValue:)) ?? ErrorCode(httpStatus: status)
        let detail = obj["detail"]?.stringValue ?? obj["title"]?.stringValue ?? ""
        // The details keep the field errors that are read (a hostile problem sent 200,000).
        var kept = obj
        if let errors = obj["errors"]?.arrayValue, errors.count > maxFieldErrors {
            kept["errors"] = .array(Array(errors.prefix(maxFieldErrors)))
        }
        var info = APIErrorInfo(
            code: code,
            message: detail,
            retryable: obj["retryable"]?.boolValue,
            retryAfterMs: obj["retryAfterMs"]?.doubleValue.flatMap {
                $0.isFinite && $0 >= 0 ? Int(min($0, 86_400_000)) : nil
            },
            provider: obj["provider"]?.stringValue,
            details: kept,
            httpStatus: status
        )
        info.isProblemDetails = true
        for item in obj["errors"]?.arrayValue?.prefix(maxFieldErrors) ?? [] {
            guard let e = item.objectValue else { continue }
            let message = e["message"]?.stringValue ?? ""
            guard !message.isEmpty else { continue }
            info.fieldErrors.append(
                FieldError(field: e["field"]?.stringValue ?? "", message: message, code: e["code"]?.stringValue)
            )
        }
        return info
    }

    static func errorInfo(fromRateLimiter obj: [String: JSONValue], text: String, status: Int) -> APIErrorInfo {
        let details = obj["details"]?.objectValue ?? [:]
        let code = (obj["code"]?.stringValue).map(ErrorCode.init(rawValue:)) ?? ErrorCode(httpStatus: status)
        let retryAfterMs =
            obj["retryAfterMs"]?.intValue ?? details["retryAfterMs"]?.intValue
            ?? details["retryAfter"]?.doubleValue.map { Int(($0 * 1000).rounded()) }
        return APIErrorInfo(
            code: code,
            message: obj["message"]?.stringValue ?? text,
            retryable: obj["retryable"]?.boolValue,
            retryAfterMs: retryAfterMs,
            provider: obj["provider"]?.stringValue ?? details["provider"]?.stringValue,
            requestsRemaining: details["requestsRemaining"]?.intValue,
            requestsLimit: details["requestsLimit"]?.intValue,
            details: details,
            httpStatus: status
        )
    }

    static func errorInfo(status: Int, message: String?) -> APIErrorInfo {
        let code = ErrorCode(httpStatus: status)
        return APIErrorInfo(code: code, message: message ?? "HTTP \(status): \(code.userMessage())", httpStatus: status)
    }

    static func decodeValue<V: Decodable>(_ type: V.Type, from value: JSONValue) -> V? {
        value.decoded(as: type)
    }

    /// A short, printable excerpt of a body: an HTML page's `<title>`, else its first 200 characters.
    package static func snippet(of body: Data, limit: Int = 200) -> String {
        let text = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
        if let open = text.range(of: "<title>", options: .caseInsensitive),
            let close = text.range(of: "</title>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
        {
            return collapse(String(text[open.upperBound..<close.lowerBound]), limit: limit)
        }
        return collapse(text, limit: limit)
    }

    static func collapse(_ s: String, limit: Int) -> String {
        let words = s.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        let joined = words.joined(separator: " ")
        return joined.count > limit ? String(joined.prefix(limit)) + "…" : joined
    }
}

/// The canonical success envelope, decoded in one pass; throws for every other shape (including
/// `success: false`, a non-null `error`, or metadata that does not decode), so the caller falls
/// back to the tolerant path.
struct SuccessEnvelope<T: Decodable>: FieldsDecodable {
    let data: T
    let metadata: ResponseMetadata
    enum CodingKeys: String, CodingKey { case success, data, metadata, error }
    struct NotCanonical: Error {}
    init(from decoder: any Decoder) throws { try self.init(decodingFieldsFrom: decoder) }
    init<Fields: KeyedFields<CodingKeys>>(fields c: Fields) throws {
        guard try c.decode(Bool.self, forKey: .success) else { throw NotCanonical() }
        if c.contains(.error), try !c.decodeNil(forKey: .error) { throw NotCanonical() }
        metadata = try c.decode(ResponseMetadata.self, forKey: .metadata)
        data = try c.decode(T.self, forKey: .data)
    }
}

/// Decodes only the `data` member of an envelope, so coding paths start at `data`.
struct DataBox<T: Decodable>: FieldsDecodable {
    let value: T
    enum CodingKeys: String, CodingKey { case data }
    init(from decoder: any Decoder) throws { try self.init(decodingFieldsFrom: decoder) }
    init<Fields: KeyedFields<CodingKeys>>(fields c: Fields) throws {
        value = try c.decode(T.self, forKey: .data)
    }
}

extension DecodedResponse: Equatable where T: Equatable {}
extension DecodedResponse: Hashable where T: Hashable {}
