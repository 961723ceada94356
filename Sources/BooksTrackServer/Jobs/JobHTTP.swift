import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird

/// Enveloped JSON responses of the job routes (docs/contract.md §1–2).
enum JobHTTP {
    /// `{success: true, data, metadata}`.
    static func success(
        _ data: some Encodable & Sendable,
        status: HTTPResponse.Status = .ok,
        started: ContinuousClock.Instant? = nil
    )
        -> Response
    {
        let envelope = Envelope.success(data, metadata: metadata(started))
        guard let body = try? JSONCoding.encoder().encode(envelope) else {
            return error(.internalError, "could not encode the response")
        }
        return Response(status: status, headers: jsonHeaders, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `{success: true, data: <raw JSON>, metadata}` without re-encoding `raw` (stored results).
    static func success(rawData raw: Data, started: ContinuousClock.Instant? = nil) -> Response {
        let meta = (try? JSONCoding.encoder().encode(metadata(started))) ?? Data("{}".utf8)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(raw.count + meta.count + 64)
        buffer.writeString("{\"success\":true,\"data\":")
        buffer.writeBytes(raw)
        buffer.writeString(",\"metadata\":")
        buffer.writeBytes(meta)
        buffer.writeString("}")
        return Response(status: .ok, headers: jsonHeaders, body: .init(byteBuffer: buffer))
    }

    /// `{success: false, data: null, metadata, error: {code, message, retryable, …}}` with the code's status.
    static func error(
        _ code: ErrorCode,
        _ message: String,
        status: HTTPResponse.Status? = nil,
        retryAfterMs: Int? = nil,
        details: [String: JSONValue]? = nil,
        extraHeaders: HTTPFields = [:]
    ) -> Response {
        let body = APIErrorBody(code: code, message: message, retryAfterMs: retryAfterMs, details: details)
        let envelope = FailureEnvelope.failure(body, metadata: metadata(nil))
        let data = (try? JSONCoding.encoder().encode(envelope)) ?? Data()
        var headers = jsonHeaders
        if let name = JobHeader.errorType { headers[name] = code.rawValue }
        if let retryAfterMs { headers[.retryAfter] = String((retryAfterMs + 999) / 1000) }
        headers.append(contentsOf: extraHeaders)
        let resolved = status ?? HTTPResponse.Status(code: code.httpStatus ?? 500)
        return Response(status: resolved, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func notFound(job id: String, pipeline: String = "job") -> Response {
        error(.notFound, "\(pipeline) \(id) not found (finished jobs and their results are kept for a limited time)")
    }

    private static let jsonHeaders: HTTPFields = [.contentType: "application/json; charset=utf-8"]

    private static func metadata(_ started: ContinuousClock.Instant?) -> ResponseMetadata {
        let ms = started.map { start -> Int in
            let elapsed = ContinuousClock.now - start
            return Int(elapsed.jobSeconds * 1000)
        }
        return ResponseMetadata(date: Date(), processingTime: ms, source: "local")
    }
}

/// Header names the job routes use that HTTPTypes does not predefine.
enum JobHeader {
    static let errorType = HTTPField.Name("X-Error-Type")
    static let lastEventID = HTTPField.Name("Last-Event-ID")
    static let accelBuffering = HTTPField.Name("X-Accel-Buffering")
}
