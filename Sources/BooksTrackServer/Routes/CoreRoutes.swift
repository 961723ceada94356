import BooksTrackCatalog
import BooksTrackContract
import Hummingbird

/// The core routes of docs/contract.md §4 (everything but jobs): health, v1 search, similar books,
/// v2 search, capabilities, weekly recommendations and single enrichment. Each limited group is
/// classed by `BudgetClass.classify` (`services.rateLimitByRoute()`).
public struct CoreRoutes: ServerRouteModule {
    public init() {}

    public func install(
        on router: Router<ServerRequestContext>, services: ServerServices
    ) throws -> ServerModuleInstallation {
        let health = HealthRoute(services: services)
        router.get("/health") { request, _ in try health.respond(request) }

        let search = SearchRoutes(services: services)
        router.group("/v1/search")
            .add(middleware: services.rateLimitByRoute())
            .get("isbn") { request, _ in try search.isbn(request) }
            .get("title") { request, _ in try search.title(request) }
            .get("author") { request, _ in try search.author(request) }
            .get("advanced") { request, _ in try search.advanced(request) }

        let similar = SimilarRoute(services: services)
        router.group("/v1/search/similar")
            .add(middleware: services.rateLimitByRoute())
            .get { request, _ in try similar.respond(request) }

        let v2 = V2SearchRoute(services: services)
        router.group("/api/v2/search")
            .add(middleware: services.rateLimitByRoute())
            .get { request, _ in try v2.respond(request) }

        let capabilities = CapabilitiesRoute(services: services)
        router.get("/api/v2/capabilities") { request, _ in try capabilities.respond(request) }

        let weekly = WeeklyRecommendationsRoute(services: services)
        router.get("/api/v2/recommendations/weekly") { request, _ in try weekly.respond(request) }

        let enrich = EnrichRoute(services: services)
        router.group("/api/v2/books/enrich")
            .add(middleware: services.rateLimitByRoute())
            .post { request, context in try await enrich.respond(request, context: context) }
        // Semantic search is offered only where it can run: with the sentence model installed.
        let semantic: Set<ServerFeature> = services.catalog.semanticUnavailableReason == nil ? [.semanticSearch] : []
        return ServerModuleInstallation(providedFeatures: semantic.union([.similarBooks, .weeklyRecommendations]))
    }
}
