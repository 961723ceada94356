import Foundation

// Fuzz target: the tolerant response decoders (BooksTrackContract/ResponseDecoding). Any body with
// any status decodes to success, an error, "not JSON" or "undecodable"; never a crash or a throw.
func fuzzOne(_ bytes: [UInt8]) {
    let status = [200, 201, 202, 400, 404, 429, 500, 502, 503][Int(bytes.first ?? 0) % 9]
    let body = Data(bytes.dropFirst())
    _ = ResponseDecoding.decode(JSONValue.self, from: body, status: status)
    _ = ResponseDecoding.decode(BookSearchResponse.self, from: body, status: status)
    _ = ResponseDecoding.decode(Capabilities.self, from: body, status: status)
    _ = ResponseDecoding.decode(JobStatus.self, from: body, status: status)
    _ = ResponseDecoding.decode(ImportAccepted.self, from: body, status: status)
    let decoded = ResponseDecoding.decode(JSONValue.self, from: body, status: status)
    if !(200..<300).contains(status), case .success = decoded {
        invariant(false, "an error status decoded as success")
    }
}
