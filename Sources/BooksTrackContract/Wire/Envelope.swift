/// The stand-in's response envelope (docs/contract.md §1):
/// `{success, data, metadata, error?}`. A failure encodes `"data": null` explicitly; `error` is
/// omitted on success.
///
/// Clients should decode with `ResponseDecoding`, which also accepts production's variants; the
/// `Decodable` conformance here is the strict stand-in form (with `success` optional).
package struct Envelope<T: Sendable>: Sendable {
    package var success: Bool
    package var data: T?
    package var metadata: ResponseMetadata
    package var error: APIErrorBody?

    package init(success: Bool, data: T?, metadata: ResponseMetadata, error: APIErrorBody? = nil) {
        self.success = success
        self.data = data
        self.metadata = metadata
        self.error = error
    }

    /// A successful envelope carrying `data`.
    package static func success(_ data: T, metadata: ResponseMetadata = ResponseMetadata()) -> Envelope {
        Envelope(success: true, data: data, metadata: metadata, error: nil)
    }

    /// A failed envelope (`data: null`).
    package static func failure(_ error: APIErrorBody, metadata: ResponseMetadata = ResponseMetadata()) -> Envelope {
        Envelope(success: false, data: nil, metadata: metadata, error: error)
    }

    enum CodingKeys: String, CodingKey { case success, data, metadata, error }
}

/// An envelope for failures, whose `data` is always null.
package typealias FailureEnvelope = Envelope<JSONValue>

extension Envelope: Encodable where T: Encodable {
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(success, forKey: .success)
        if let data { try c.encode(data, forKey: .data) } else { try c.encodeNil(forKey: .data) }
        try c.encode(metadata, forKey: .metadata)
        try c.encodeIfPresent(error, forKey: .error)
    }
}

extension Envelope: Decodable where T: Decodable {
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        error = try c.decodeIfPresent(APIErrorBody.self, forKey: .error)
        success = try c.decodeIfPresent(Bool.self, forKey: .success) ?? (error == nil)
        metadata = try c.decodeIfPresent(ResponseMetadata.self, forKey: .metadata) ?? ResponseMetadata(timestamp: "")
        if c.contains(.data), try !c.decodeNil(forKey: .data) {
            data = try c.decode(T.self, forKey: .data)
        } else {
            data = nil
        }
    }
}

extension Envelope: Equatable where T: Equatable {}
extension Envelope: Hashable where T: Hashable {}
