import Hummingbird
import HummingbirdCore
import ServiceLifecycle

/// A set of routes plugged into the local server. The core routes are one module; the job routes
/// (CSV import, batch enrichment, SSE, WebSocket) are another, listed in `LocalServer.defaultModules`.
///
/// Modules install on the shared router after the global middlewares (error envelope, response
/// headers, fault injection, global rate limit), so their failures get the same envelope. Class
/// routes with `router.add(middleware: services.rateLimitByRoute())` before registering them
/// (`BudgetClass.classify`, the one route classifier), or `services.rateLimit(.jobs)` on a group.
package protocol ServerRouteModule: Sendable {
    /// Registers this module's routes on `router` (called once per server start) and says what else
    /// the module needs. Throwing aborts the start.
    func install(on router: Router<ServerRequestContext>, services: ServerServices) throws -> ServerModuleInstallation
}

/// What a module needs besides its routes.
package struct ServerModuleInstallation: Sendable {
    /// Background services run with the server and shut down gracefully with it (job runners).
    package var services: [any Service]
    /// A server builder to use instead of plain HTTP/1, e.g. `.http1WebSocketUpgrade(webSocketRouter:)`.
    /// The first module providing one wins.
    package var serverBuilder: HTTPServerBuilder?
    /// Called once after the server has stopped (close databases, cancel workers).
    package var onShutdown: (@Sendable () async -> Void)?
    /// The capability features this module serves; the capabilities route reports a feature as
    /// enabled only when some module provides it and the configuration does not disable it.
    package var providedFeatures: Set<ServerFeature>

    package init(
        services: [any Service] = [],
        serverBuilder: HTTPServerBuilder? = nil,
        onShutdown: (@Sendable () async -> Void)? = nil,
        providedFeatures: Set<ServerFeature> = []
    ) {
        self.providedFeatures = providedFeatures
        self.services = services
        self.serverBuilder = serverBuilder
        self.onShutdown = onShutdown
    }

    /// Routes only.
    package static var routesOnly: ServerModuleInstallation { ServerModuleInstallation() }
}
