import Hummingbird
import HummingbirdCore
import ServiceLifecycle

/// A set of routes plugged into the local server. The core routes are one module; the job routes
/// (CSV import, batch enrichment, SSE, WebSocket) are another, listed in
/// `LocalServer.defaultModules`.
///
/// Modules register on the shared router after the global middlewares (error envelope, response
/// headers, fault injection, global rate limit), so their failures get the same envelope. Attach a
/// rate-limit class to a route group with `services.rateLimit(.jobs)`.
public protocol ServerRouteModule: Sendable {
    /// Adds this module's routes (and their group middlewares) to `router`.
    func addRoutes(to router: Router<ServerRequestContext>, services: ServerServices)
    /// Background services started and stopped with the server (job runners, sweepers).
    func backgroundServices(_ services: ServerServices) -> [any Service]
    /// A server builder to use instead of plain HTTP/1, e.g. `.http1WebSocketUpgrade(...)` for the
    /// WebSocket progress route. The first module returning one wins.
    func serverBuilder(_ services: ServerServices) -> HTTPServerBuilder?
}

extension ServerRouteModule {
    public func backgroundServices(_ services: ServerServices) -> [any Service] { [] }
    public func serverBuilder(_ services: ServerServices) -> HTTPServerBuilder? { nil }
}
