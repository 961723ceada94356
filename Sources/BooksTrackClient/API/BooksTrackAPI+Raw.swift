import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// The answer to a raw request (`api`): its status, headers and body as they came.
package struct RawAnswer: Sendable {
    package var status: Int
    /// The response's headers, secrets masked.
    package var headers: [HeaderField]
    package var body: Data
}

extension BooksTrackAPI {
    /// The methods a raw request may use.
    package static let rawMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
    /// The largest body a raw request sends.
    package static let maxRawRequestBodyBytes = 1 << 20

    /// One request to any route of the configured server, through the same path as every other
    /// call (credentials, retries, the GET cache, the trace, the last exchange), budgeted by the
    /// contract's classifier from its path. A 2xx answer is returned whatever its body; any other
    /// status throws as every call does.
    package func raw(
        method: String,
        path: String,
        query: [(name: String, value: String)] = [],
        headers: [HeaderField] = [],
        body: Data? = nil
    ) async throws(BooksTrackError) -> APIResponse<RawAnswer> {
        let method = method.uppercased()
        guard Self.rawMethods.contains(method) else {
            throw BooksTrackError.invalidInput(
                "Unknown method '\(method)': use one of \(Self.rawMethods.joined(separator: ", "))."
            )
        }
        guard path.hasPrefix("/"), !path.hasPrefix("//") else {
            throw BooksTrackError.invalidInput("The path must start with '/' (a route of the configured server).")
        }
        if let body, body.count > Self.maxRawRequestBodyBytes {
            throw BooksTrackError.invalidInput(
                "The request body is larger than \(Self.maxRawRequestBodyBytes / 1024) KiB."
            )
        }
        var spec = RequestSpec(HTTPMethod(rawValue: method), path, query: query)
        var sent: [HeaderField] = []
        for field in headers {
            if field.name.lowercased() == "accept" { spec.accept = field.value } else { sent.append(field) }
        }
        spec.headers = sent
        if let body { spec.body = .json(body) }
        let outcome = try await perform(spec)
        var info = responseInfo(outcome, spec: spec)
        info.source = outcome.source
        let answer = RawAnswer(
            status: outcome.raw.status,
            headers: SecretMasking.maskHeaders(outcome.raw.headerFields),
            body: Data(buffer: outcome.raw.body)
        )
        return APIResponse(value: answer, info: info)
    }
}

extension BooksTrackAPI {
    /// The routes a raw request's path completes from: those the server's capabilities list
    /// (production's `features[].endpoints`), else those the client knows for its dialect.
    package var offeredRoutes: [KnownRoute] {
        var seen: Set<KnownRoute> = []
        let listed = (capabilities?.endpoints ?? [:]).sorted { $0.key < $1.key }.flatMap(\.value)
            .compactMap(KnownRoute.init(endpoint:)).filter { seen.insert($0).inserted }
        return listed.isEmpty ? KnownRoute.known(for: dialect) : listed
    }
}
