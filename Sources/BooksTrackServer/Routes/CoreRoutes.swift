import BooksTrackCatalog
import BooksTrackContract
import Hummingbird

/// The core routes of docs/contract.md §4 (everything but jobs): health, v1 search, similar books,
/// v2 search, capabilities, weekly recommendations and single enrichment. Each limited group is
/// classed by `BudgetClass.classify` (`services.rateLimitByRoute()`).
package struct CoreRoutes: ServerRouteModule {
    package init() {}

    package func install(
        on router: Router<ServerRequestContext>,
        services: ServerServices
    ) throws -> ServerModuleInstallation {
        let health = HealthRoute(services: services)
        router.get(RouterPath(APIPath.health)) { request, _ in try health.respond(request) }

        let search = SearchRoutes(services: services)
        router.group()
            .add(middleware: services.rateLimitByRoute())
            .get(RouterPath(APIPath.isbnSearch)) { request, _ in try search.isbn(request) }
            .get(RouterPath(APIPath.titleSearch)) { request, _ in try search.title(request) }
            .get(RouterPath(APIPath.authorSearch)) { request, _ in try search.author(request) }
            .get(RouterPath(APIPath.advancedSearch)) { request, _ in try search.advanced(request) }

        let similar = SimilarRoute(services: services)
        router.group(RouterPath(APIPath.similarSearch))
            .add(middleware: services.rateLimitByRoute())
            .get { request, _ in try similar.respond(request) }

        let v2 = V2SearchRoute(services: services)
        router.group(RouterPath(APIPath.search))
            .add(middleware: services.rateLimitByRoute())
            .get { request, _ in try v2.respond(request) }

        let capabilities = CapabilitiesRoute(services: services)
        router.get(RouterPath(APIPath.capabilities)) { request, _ in try capabilities.respond(request) }

        let weekly = WeeklyRecommendationsRoute(services: services)
        router.get(RouterPath(APIPath.weekly)) { request, _ in try weekly.respond(request) }

        let enrich = EnrichRoute(services: services)
        router.group(RouterPath(APIPath.enrich))
            .add(middleware: services.rateLimitByRoute())
            .post { request, context in try await enrich.respond(request, context: context) }
        // Semantic search is offered only where it can run: with the sentence model installed.
        let semantic: Set<ServerFeature> = services.catalog.semanticUnavailableReason == nil ? [.semanticSearch] : []
        return ServerModuleInstallation(providedFeatures: semantic.union([.similarBooks, .weeklyRecommendations]))
    }
}
