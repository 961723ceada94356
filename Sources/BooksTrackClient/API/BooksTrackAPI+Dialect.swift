import BooksTrackContract
import Foundation
import NIOHTTP1

/// Where the dialect in force came from (`caps` and `status` say it).
package enum DialectSource: String, Sendable, Hashable {
    /// `--dialect` or the profile's `dialect` setting.
    case forced
    /// Asked of the server by `connect()` (or read from the capabilities cache).
    case negotiated
    /// Not known yet: v1/v2 is assumed until the server answers.
    case assumed
}

extension BooksTrackAPI {
    /// The API dialect requests are sent in: the forced one, else the negotiated one, else v1/v2.
    package var dialect: APIDialect { configuration.dialect ?? negotiatedDialect ?? .v1 }

    /// Where ``dialect`` came from.
    package var dialectSource: DialectSource {
        if configuration.dialect != nil { return .forced }
        return negotiatedDialect == nil ? .assumed : .negotiated
    }

    /// One probe per server: `GET /v3/capabilities` (bare `{features, limits, version}`, bendv3
    /// `src/api-v3/discovery.ts` @ e40ae5d); when it is not there (a route-level 404, or anything that
    /// is not a capabilities body), `GET /api/v2/capabilities`. A forced dialect asks its own route only.
    func fetchCapabilitiesNegotiating() async throws(BooksTrackError) -> (APIResponse<Capabilities>, APIDialect) {
        if configuration.dialect != .v1 {
            var spec = RequestSpec(.GET, APIPath.v3Capabilities)
            spec.offering = "API v3"
            spec.notFoundMessage = "This server does not speak API v3."
            do {
                let response = try await call(Capabilities.self, spec)
                // A v3 body names its version; an empty object from a catch-all is not v3.
                if response.value.version != nil || !response.value.features.isEmpty || configuration.dialect == .v3 {
                    return (response, .v3)
                }
            } catch {
                // Unreachable is unreachable: asking the other route would only double the wait.
                if configuration.dialect == .v3 || error.category == .network || error.category == .rateLimited
                    || error.category == .cancelled
                {
                    throw error
                }
            }
        }
        var spec = RequestSpec(.GET, APIPath.capabilities)
        spec.offering = "a capabilities route (neither API v3 nor v1/v2)"
        spec.notFoundMessage = "This server does not publish its capabilities."
        return (try await call(Capabilities.self, spec), .v1)
    }

    /// Remembers which pipeline a job belongs to (a v3 job's routes are named after it).
    func remember(job jobID: String, pipeline: Pipeline) {
        if jobPipelines.count > 1024 { jobPipelines.removeAll(keepingCapacity: true) }
        jobPipelines[jobID] = pipeline
    }

    /// The v1/v2 route a v3 server may still serve for a feature v3 lacks (similar, semantic, author
    /// search): asked once; a route-level 404 is remembered and said as "this server does not offer …".
    func legacyFallback<T: Decodable & Sendable>(
        _ type: T.Type,
        _ spec: RequestSpec
    ) async throws(BooksTrackError) -> APIResponse<T> {
        var spec = spec
        if dialect == .v3 {
            let what = spec.offering ?? "that"
            if legacyRoutesGone.contains(spec.path) {
                throw BooksTrackError.notOfferedOnV3(what, route: "\(spec.method.rawValue) \(spec.path)")
            }
            spec.notFoundMessage = spec.notFoundMessage ?? "This server does not offer \(what)."
        }
        do {
            return try await call(type, spec)
        } catch  where error.code == .routeNotOffered {
            legacyRoutesGone.insert(spec.path)
            if dialect == .v3 {
                throw BooksTrackError.notOfferedOnV3(
                    spec.offering ?? "that",
                    route: "\(spec.method.rawValue) \(spec.path)"
                )
            }
            throw error
        }
    }
}

extension BooksTrackError {
    /// A feature API v3 has no route for (production 3.x: no author, semantic or similar search,
    /// although `/v3/capabilities` advertises `semantic_search` and `similar_books`).
    static func notOfferedOnV3(_ what: String, route: String) -> BooksTrackError {
        BooksTrackError(
            code: .routeNotOffered,
            kind: .api,
            message:
                "This server does not offer \(what): API v3 has no such route, and \(route) answers 404 \"Endpoint not found\".",
            detail: "\(route): route-level 404 on a v3 server",
            httpStatus: 404
        )
    }
}
