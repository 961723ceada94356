import BooksTrackCatalog
import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// The API v3 routes of today's production (bendv3 3.4.3, `src/api-v3/*`, read at the commits each file names), served beside
/// the v1/v2 routes as production did during its migration: books (lookup, search, enrich),
/// capabilities, weekly/personalized recommendations, and the job routes (`imports`, `enrichment`)
/// with v3 job tokens and the v3 SSE wire. Failures are RFC 9457 problems (`V3Problem`); an unknown
/// `/v3/…` path gets the legacy `Endpoint not found: METHOD PATH` 404 (`src/router.ts` @ e40ae5d
/// `app.notFound`).
///
/// Every route is classed by `BudgetClass.classify` (`services.rateLimitByRoute()`). The job routes use
/// the job routes module's engine (`services.jobEngine`); without that module they answer 501.
/// Install it before `JobRoutes` (whose router-wide middlewares would otherwise class these routes twice).
package struct V3Routes: ServerRouteModule {
    package init() {}

    package func install(
        on router: Router<ServerRequestContext>,
        services: ServerServices
    ) throws
        -> ServerModuleInstallation
    {
        let v3 = V3Handlers(services: services)
        let group = router.group().add(middleware: services.rateLimitByRoute())
        group.get(RouterPath(APIPath.v3Capabilities)) { request, _ in v3.run(request) { try v3.capabilities(request) } }
        group.get(RouterPath(APIPath.v3Search)) { request, _ in v3.run(request) { try v3.search(request) } }
        group.post(RouterPath(APIPath.v3Enrich)) { request, context in
            await v3.runAsync(request) { try await v3.enrich(request, owner: context.clientAddress) }
        }
        group.get("/v3/books/:isbn") { request, context in
            v3.run(request) { try v3.book(request, isbn: context.parameters.get("isbn") ?? "") }
        }
        group.get(RouterPath(APIPath.v3Weekly)) { request, _ in v3.run(request) { try v3.weekly(request) } }
        group.get(RouterPath(APIPath.v3Personalized)) { request, _ in
            v3.run(request) { try v3.personalized(request) }
        }
        group.post(RouterPath(APIPath.v3Imports)) { request, context in
            await v3.runAsync(request) { try await v3.submitImport(request, owner: context.clientAddress) }
        }
        group.post(RouterPath(APIPath.v3Scans)) { request, context in
            await v3.runAsync(request) { try await v3.submitScan(request, owner: context.clientAddress) }
        }
        group.get("/v3/jobs/:pipeline/:id") { request, context in
            await v3.runAsync(request) { try await v3.jobStatus(request, V3JobPath(context)) }
        }
        group.get("/v3/jobs/:pipeline/:id/results") { request, context in
            await v3.runAsync(request) { try await v3.jobResults(request, V3JobPath(context)) }
        }
        group.delete("/v3/jobs/:pipeline/:id") { request, context in
            await v3.runAsync(request) { try await v3.cancel(request, V3JobPath(context)) }
        }
        group.get("/v3/jobs/:pipeline/:id/stream") { request, context in
            await v3.runAsync(request) { try await v3.stream(request, V3JobPath(context)) }
        }
        // router.ts @ e40ae5d `app.notFound`: the legacy envelope for every other /v3 path.
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("/v3/**", method: method) { request, _ in v3.endpointNotFound(request) }
        }
        return .routesOnly
    }
}

/// The v3 handlers of one server.
struct V3Handlers: Sendable {
    let services: ServerServices

    var dialect: ServerDialect { services.configuration.dialect }

    /// Runs a handler, answering its `V3Problem` or `APIError` as a problem.
    func run(_ request: Request, _ body: () throws -> Response) -> Response {
        do { return try body() } catch { return problemResponse(error, request) }
    }

    func runAsync(_ request: Request, _ body: () async throws -> Response) async -> Response {
        do { return try await body() } catch { return problemResponse(error, request) }
    }

    func problemResponse(_ error: any Error, _ request: Request) -> Response {
        let problem = (error as? V3Problem) ?? V3Problem(services.apiError(from: error, request: request))
        return problem.response(to: request, now: services.now(), dialect: dialect)
    }

    /// `{success: false, data: null, metadata: {timestamp}, error: {message, code: NOT_FOUND, details: {method, path}}}`.
    func endpointNotFound(_ request: Request) -> Response {
        let body = ProductionDialect.endpointNotFound(
            method: request.method.rawValue,
            path: request.uri.path,
            timestamp: ISO8601.string(from: services.now())
        )
        return V3Wire.json(body, status: .notFound)
    }

    // MARK: Capabilities (src/api-v3/discovery.ts @ e40ae5d)

    /// Bare `{features, limits, version}`, `Cache-Control: public, max-age=300, s-maxage=300`. The
    /// contract dialect says what this server serves on v3 (no semantic or similar route: false) and its
    /// own version; the production dialect repeats production's claims (semantic_search and
    /// similar_books true although v3 has no such route) and its version.
    func capabilities(_ request: Request) throws -> Response {
        let production = dialect == .production
        // The stand-in says what it offers through any route: semantic and similar search are served
        // at their v1/v2 routes (v3 has none) unless those routes are switched off; production claims
        // both although it serves neither (discovery.ts @ e40ae5d).
        let legacy = services.configuration.servesLegacyRoutes
        let features: [String: JSONValue] = [
            "semantic_search": .bool(production || (legacy && services.isAvailable(.semanticSearch))),
            "similar_books": .bool(production || (legacy && services.isAvailable(.similarBooks))),
            "weekly_recommendations": .bool(production || services.isAvailable(.weeklyRecommendations)),
            "sse_streaming": .bool(production || (hasJobs && services.isAvailable(.sseProgress))),
            "batch_enrichment": .bool(production || (hasJobs && services.isAvailable(.batchEnrichment))),
            "csv_import": .bool(production || (hasJobs && services.isAvailable(.csvImport))),
        ]
        var listed = features
        // Production's list has no bookshelf_scan (it serves scans all the same); the stand-in says.
        if !production { listed["bookshelf_scan"] = .bool(hasJobs && services.isAvailable(.bookshelfScan)) }
        let rules = services.configuration.effectiveRateLimits
        let textRPM = production ? 60 : rules[.search]?.requestsPerMinute ?? 60
        let semanticRPM = production ? 10 : rules[.semantic]?.requestsPerMinute ?? 10
        let csvRows = production ? 1000 : engineSource?.configuration.maxCSVRows ?? 1000
        let body: JSONValue = [
            "features": .object(listed),
            "limits": [
                "semantic_search_rpm": .number(Double(semanticRPM)), "text_search_rpm": .number(Double(textRPM)),
                "csv_max_rows": .number(Double(csvRows)), "batch_max_photos": 50,
            ],
            "version": .string(production ? V3Wire.productionVersion : services.configuration.version),
        ]
        return V3Wire.json(body, headers: [.cacheControl: "public, max-age=300, s-maxage=300"])
    }

    var engineSource: JobEngineSource? { services.jobEngine.withLock { $0 } }
    var hasJobs: Bool { engineSource != nil }

    // MARK: Recommendations (src/api-v3/discovery.ts @ e40ae5d, src/api-v3/recommendations.ts @ e40ae5d)

    /// `GET /v3/recommendations/weekly?limit=` (1–20, default 10): `{weekOf (the Sunday), recommendations:
    /// [{isbn, title, author, coverUrl?, reason}], count, totalAvailable}` from the weekly route's data;
    /// `metadata: {…, source, cached, processingTime}`, `_links.self` `/v3/recommendations/weekly?limit=N`.
    func weekly(_ request: Request) throws -> Response {
        let started = ContinuousClock.now
        let limit = try V3Query(request).int("limit", default: 10, range: 1...20)
        let now = services.now()
        let (picks, total) = try recommendations(limit: limit, now: now)
        guard !picks.isEmpty else { throw V3Problem.notFound("No recommendations available for this week") }
        let data: JSONValue = [
            "weekOf": .string(ISO8601.dayString(from: Self.sunday(onOrBefore: now))),
            "recommendations": .array(picks), "count": .number(Double(picks.count)),
            "totalAvailable": .number(Double(total)),
        ]
        return V3Wire.success(
            data,
            now: now,
            metadata: Self.sourceMetadata(started),
            links: ["self": V3Wire.link(APIPath.v3Weekly + "?limit=\(limit)")]
        )
    }

    /// `{source: "alexandria", cached: false, processingTime}` (the D1 answer of the recommendation routes).
    static func sourceMetadata(_ started: ContinuousClock.Instant) -> [String: JSONValue] {
        ["source": "alexandria", "cached": false, "processingTime": .number(Double(started.elapsedMilliseconds))]
    }

    /// `GET /v3/recommendations/personalized?limit=&userId=`: production ignores the user and falls back
    /// to the weekly picks (`strategy: "weekly_fallback"`); none → 404 "No recommendations available at this time".
    func personalized(_ request: Request) throws -> Response {
        let started = ContinuousClock.now
        let query = V3Query(request)
        let limit = try query.int("limit", default: 10, range: 1...20)
        let user = query.parameters.string("userId")
        let now = services.now()
        let (picks, _) = try recommendations(limit: limit, now: now)
        guard !picks.isEmpty else { throw V3Problem.notFound("No recommendations available at this time") }
        let data: JSONValue = [
            "recommendations": .array(picks), "total": .number(Double(picks.count)), "strategy": "weekly_fallback",
            "generatedAt": .string(ISO8601.string(from: now)),
        ]
        let href = APIPath.v3Personalized + "?limit=\(limit)" + (user.map { "&userId=\($0)" } ?? "")
        return V3Wire.success(
            data,
            now: now,
            metadata: Self.sourceMetadata(started),
            links: ["self": V3Wire.link(href)]
        )
    }

    private func recommendations(limit: Int, now: Date) throws -> ([JSONValue], Int) {
        try services.require(.weeklyRecommendations)
        let all = try services.catalog.weeklyRecommendations(weekOf: ISOWeek(containing: now).monday, limit: 50)
        let picks = all.prefix(limit).map { pick -> JSONValue in
            var object: [String: JSONValue] = [
                "isbn": .string(pick.book.isbn13 ?? pick.book.isbn10.map(V3Wire.isbn13) ?? ""),
                "title": .string(pick.book.title), "author": .string(pick.book.authors.first ?? "Unknown Author"),
                "reason": .string(pick.reason),
            ]
            if let cover = pick.book.imageURL { object["coverUrl"] = .string(cover) }
            return .object(object)
        }
        return (picks, all.count)
    }

    /// 00:00 UTC of the Sunday on or before `date`.
    static func sunday(onOrBefore date: Date) -> Date {
        let days = (date.timeIntervalSince1970 / 86_400).rounded(.down)
        // 1970-01-01 was a Thursday: days since the last Sunday = (days + 4) mod 7.
        let sinceSunday = (Int(days) % 7 + 4 + 7) % 7
        return Date(timeIntervalSince1970: (days - Double(sinceSunday)) * 86_400)
    }
}

/// Query parameters of the v3 routes, refused as Zod does: a 400 validation problem naming the field.
struct V3Query {
    let parameters: QueryParameters

    init(_ request: Request) { parameters = QueryParameters(request) }

    /// An integer in `range` (`z.coerce.number().int().min().max()`), `default` when absent.
    func int(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = parameters.string(name) else { return value }
        guard let number = Double(text) else {
            throw V3Problem.validation(field: name, "Expected number, received nan", code: "invalid_type")
        }
        guard number == number.rounded(), let whole = Int(exactly: number) else {
            throw V3Problem.validation(field: name, "Expected integer, received float", code: "invalid_type")
        }
        guard whole >= range.lowerBound else {
            throw V3Problem.validation(
                field: name,
                "Number must be greater than or equal to \(range.lowerBound)",
                code: "too_small"
            )
        }
        guard whole <= range.upperBound else {
            throw V3Problem.validation(
                field: name,
                "Number must be less than or equal to \(range.upperBound)",
                code: "too_big"
            )
        }
        return whole
    }
}
