import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird

/// Builds JSON responses with the contract's encoder.
enum JSONResponse {
    static let contentType = "application/json; charset=utf-8"

    /// `value` as a JSON body.
    static func make(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) throws -> Response {
        let data = try JSONCoding.encoder().encode(value)
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A success envelope around `data`.
    static func envelope<T: Encodable & Sendable>(
        _ data: T, metadata: ResponseMetadata = ResponseMetadata(), status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) throws -> Response {
        try make(Envelope.success(data, metadata: metadata), status: status, headers: headers)
    }
}

extension APIError {
    /// The failure envelope with `X-Error-Type`, plus this error's own headers.
    func response() -> Response {
        var fields = headers
        fields[.contentType] = JSONResponse.contentType
        fields[.xErrorType] = code.rawValue
        let envelope = FailureEnvelope.failure(body, metadata: ResponseMetadata())
        let data: Data
        do {
            data = try JSONCoding.encoder().encode(envelope)
        } catch {
            // An APIErrorBody always encodes; keep a fixed body for the impossible case anyway.
            data = Data(
                #"{"success":false,"data":null,"metadata":{},"error":{"code":"INTERNAL_ERROR","message":"encoding failed","retryable":true}}"#
                    .utf8)
        }
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
