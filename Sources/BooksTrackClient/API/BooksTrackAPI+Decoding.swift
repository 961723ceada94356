import BooksTrackContract
import Foundation
import NIOHTTP1

extension BooksTrackAPI {
    /// Performs `spec` and decodes `T` (enveloped or bare, every accepted shape; ``ResponseReading``).
    func call<T: Decodable & Sendable>(
        _ type: T.Type,
        _ spec: RequestSpec
    ) async throws(BooksTrackError) -> APIResponse<T> {
        do {
            let outcome = try await perform(spec)
            return try ResponseReading.decode(type, outcome, spec: spec, info: responseInfo(outcome, spec: spec))
        } catch  where error.code == .routeNotOffered {
            throw ResponseReading.notOffered(error, spec: spec)
        }
    }

    /// Status, headers, timing, cache and rate-limit facts of an outcome, with the route's
    /// deprecation warning the first time it is met.
    func responseInfo(_ outcome: CallOutcome, spec: RequestSpec) -> ResponseInfo {
        ResponseReading.info(
            outcome,
            spec: spec,
            now: configuration.now,
            deprecationWarning: deprecationWarning(outcome.raw.headers, path: spec.path)
        )
    }

    /// The legacy-route warning, once per route and session.
    func deprecationWarning(_ headers: HTTPHeaders, path: String) -> String? {
        guard !deprecationWarned.contains(path), let text = ResponseReading.deprecationText(headers, path: path) else {
            return nil
        }
        deprecationWarned.insert(path)
        return text
    }

    /// Encodes a request body.
    static func json(_ value: some Encodable) throws(BooksTrackError) -> Data {
        do { return try JSONCoding.encoder(sortedKeys: true).encode(value) } catch {
            throw BooksTrackError.invalidInput("Could not encode the request: \(error)")
        }
    }
}
