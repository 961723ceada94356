extension LocalServer {
    /// The route modules of a default server. The job routes (Jobs/) add `JobRoutes()` here.
    public static var defaultModules: [any ServerRouteModule] {
        [CoreRoutes()]
    }
}
