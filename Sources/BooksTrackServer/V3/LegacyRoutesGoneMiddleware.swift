import BooksTrackContract
import Hummingbird

/// `--no-legacy-routes`: the server speaks like production 3.x, whose `src/router.ts` @ e40ae5d mounts
/// no `/v1/*` nor `/api/v2/*` route (nor `/api/batch-enrich`): each answers the legacy route-gone 404
/// `{success: false, data: null, metadata: {timestamp}, error: {message: "Endpoint not found: METHOD PATH",
/// code: "NOT_FOUND", details: {method, path}}}`. `/health`, `/api/token/refresh`, `/ws/progress` and
/// `/v3/*` stay. The outermost middleware (before the production dialect's own route gaps).
struct LegacyRoutesGoneMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let services: ServerServices

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard Self.isLegacy(request.uri.path) else { return try await next(request, context) }
        return V3Handlers(services: services).endpointNotFound(request)
    }

    static func isLegacy(_ path: String) -> Bool {
        path == "/v1" || path.hasPrefix("/v1/") || path == "/api/v2" || path.hasPrefix("/api/v2/")
            || path == APIPath.batchEnrichmentOld
    }
}
