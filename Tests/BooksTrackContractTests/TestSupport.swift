import BooksTrackContract
import Foundation
import Testing

/// Loads a recorded fixture body from `Fixtures/`.
func fixture(_ name: String) throws -> Data {
    let url = try #require(
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
        "missing fixture \(name)"
    )
    return try Data(contentsOf: url)
}

/// Encodes `value` with the shared encoder and reads it back as a JSON object.
func encodedObject(_ value: some Encodable) throws -> [String: JSONValue] {
    let data = try JSONCoding.encoder(sortedKeys: true).encode(value)
    let json = try JSONDecoder().decode(JSONValue.self, from: data)
    return try #require(json.objectValue, "not an object: \(String(decoding: data, as: UTF8.self))")
}

/// Encodes with sorted keys to a string.
func encodedString(_ value: some Encodable) throws -> String {
    String(decoding: try JSONCoding.encoder(sortedKeys: true).encode(value), as: UTF8.self)
}

/// Encodes then decodes with the shared coders.
func roundTrip<T: Codable>(_ value: T) throws -> T {
    try JSONCoding.decoder().decode(T.self, from: JSONCoding.encoder().encode(value))
}

/// Decodes `T` from a fixture with the tolerant path and requires success.
func decodeFixture<T: Decodable & Sendable>(
    _ type: T.Type,
    _ name: String,
    status: Int = 200,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> (T, ResponseMetadata?) {
    let result = ResponseDecoding.decode(T.self, from: try fixture(name), status: status)
    guard case .success(let value, let metadata) = result else {
        Issue.record(
            "\(name) did not decode as \(T.self): \(String(describing: result.errorInfo))",
            sourceLocation: sourceLocation
        )
        throw FixtureError.notDecoded
    }
    return (value, metadata)
}

enum FixtureError: Error { case notDecoded }

/// A tiny SSE splitter for fixtures (the real WHATWG parser lives in the client).
func sseEvents(_ text: String) -> [(name: String?, data: String)] {
    var events: [(String?, String)] = []
    var name: String?
    var data: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.isEmpty {
            if !data.isEmpty { events.append((name, data.joined(separator: "\n"))) }
            name = nil
            data = []
        } else if line.hasPrefix("event:") {
            name = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
        } else if line.hasPrefix("data:") {
            data.append(String(line.dropFirst(5).drop(while: { $0 == " " })))
        }
    }
    return events
}
