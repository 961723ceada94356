import BooksTrackContract

extension LocalServer {
    /// The route modules of a default server (`start`/`serve` without `modules:`).
    ///
    /// The job routes plug in here as one more module, e.g. `[CoreRoutes(), JobRoutesModule()]`, where
    /// (sketch, in Jobs/):
    ///
    ///     struct JobRoutesModule: ServerRouteModule {
    ///         func install(on router: Router<ServerRequestContext>, services: ServerServices) throws
    ///             -> ServerModuleInstallation {
    ///             let engine = try JobEngine(...)   // services.catalog, services.configuration.jobs, cacheDirectory
    ///             // Class every job route (import / batch / jobs) before registering them:
    ///             router.add(middleware: services.rateLimitByRoute())   // BudgetClass.classify
    ///             JobRoutes.register(on: router, engine: engine)
    ///             return ServerModuleInstallation(
    ///                 serverBuilder: .http1WebSocketUpgrade(webSocketRouter: JobRoutes.makeWebSocketRouter(engine: engine)),
    ///                 onShutdown: { engine.shutdown() },
    ///                 providedFeatures: [.csvImport, .batchEnrichment, .sseProgress, .jobCancellation])
    ///         }
    ///     }
    ///
    /// `V3Routes` comes before `JobRoutes`: the job module adds router-wide middlewares (feature gate,
    /// route classing) that apply to every route registered after it.
    package static var defaultModules: [any ServerRouteModule] {
        [CoreRoutes(), V3Routes(), JobRoutes()]
    }
}
