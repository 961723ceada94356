import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird

/// Builds JSON responses with the contract's encoder.
enum JSONResponse {
    static let contentType = "application/json; charset=utf-8"

    /// `value` as a JSON body.
    static func make(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) throws -> Response {
        let data = try JSONCoding.encoder().encode(value)
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A bare body already encoded (a cached route result).
    static func make(_ encoded: EncodedJSON, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: .init(byteBuffer: encoded.bytes))
    }

    /// A success envelope around `data` already encoded (a cached route result): the same JSON
    /// `envelope(_:metadata:)` writes, without encoding the data again.
    static func envelope(
        _ encoded: EncodedJSON,
        metadata: ResponseMetadata,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(
            status: status,
            headers: fields,
            body: .init(byteBuffer: envelopeBytes(encoded, metadata: metadata))
        )
    }

    /// The body of `envelope(_:metadata:)` for stored bytes.
    static func envelopeBytes(_ encoded: EncodedJSON, metadata: ResponseMetadata) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(encoded.bytes.readableBytes + 256)
        buffer.writeStaticString(#"{"success":true,"data":"#)
        buffer.writeImmutableBuffer(encoded.bytes)
        buffer.writeStaticString(#","metadata":"#)
        metadata.writeJSON(to: &buffer)
        buffer.writeStaticString("}")
        return buffer
    }

    /// A success envelope around `data`.
    static func envelope<T: Encodable & Sendable>(
        _ data: T,
        metadata: ResponseMetadata = ResponseMetadata(),
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) throws -> Response {
        try make(Envelope.success(data, metadata: metadata), status: status, headers: headers)
    }
}

/// A JSON value encoded once with the contract's encoder, kept as bytes (the response cache
/// stores these, so a hit costs a copy instead of an encode).
struct EncodedJSON: Sendable {
    let bytes: ByteBuffer

    init(_ value: some Encodable) throws {
        bytes = ByteBuffer(bytes: try JSONCoding.encoder().encode(value))
    }

    /// Bytes written by one of the hand-written writers (`V2SearchResponse.encodedJSON()`).
    init(bytes: ByteBuffer) {
        self.bytes = bytes
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
                    .utf8
            )
        }
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
