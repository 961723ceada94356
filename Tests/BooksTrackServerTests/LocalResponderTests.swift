import BooksTrackContract
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import BooksTrackServer

/// The router answering in-process (the embedded backend's path) gives what the socket gives: the
/// same status, body (metadata aside: its timestamp and timing differ) and headers, errors included.
@Suite struct LocalResponderTests {
    static let targets = [
        "/v1/search/isbn?isbn=9780441172719", "/v1/search/title?q=dune&limit=3",
        "/v1/search/author?name=herbert", "/api/v2/search?q=desert%20planet&mode=semantic&limit=4",
        "/v1/search/isbn?isbn=12345", "/v1/search/title", "/no/such/route", "/api/v2/capabilities", "/health",
    ]

    /// The body with `metadata` removed (when it is a JSON object).
    static func comparable(_ body: Data) -> String {
        guard var object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            return String(decoding: body, as: UTF8.self)
        }
        object["metadata"] = nil
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? body
        return String(decoding: data, as: UTF8.self)
    }

    @Test func answersAsTheSocketDoes() async throws {
        try await TestServer.with { server in
            for target in Self.targets {
                let overSocket = try await server.get(target)
                let local = try await server.running.responder.respond(
                    method: .get, target: target, headers: [:], body: nil, bodyLimit: 1 << 20)
                #expect(local.status == overSocket.status, "\(target)")
                #expect(Self.comparable(Data(buffer: local.body)) == Self.comparable(overSocket.body), "\(target)")
                // (X-Cache aside: the second asker of a cached route gets HIT.)
                for name in ["Content-Type", "Cache-Control", "X-Response-Format", "X-Error-Type"] {
                    let field = try #require(HTTPField.Name(name))
                    #expect(local.headers[field] == overSocket.header(name), "\(target) \(name)")
                }
            }
        }
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        _ = try await TestServer.with { server in
            await #expect(throws: LocalResponderBodyTooLarge.self) {
                _ = try await server.running.responder.respond(
                    method: .get, target: "/v1/search/title?q=dune&limit=20", headers: [:], body: nil, bodyLimit: 64)
            }
        }
    }
}
