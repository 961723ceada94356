import BooksTrackContract

/// A route as `api`'s completion offers it: a method (when known) and a path, which may hold
/// `{placeholders}` where an id goes (`/v1/jobs/{jobId}/status`).
///
/// The routes the client knows for each dialect are listed here: the fixed ones are read from
/// ``APIPath``, the routes with an id in them are stated here once (the job calls fill them in with
/// ``path(_:)``; the import routes are `ImportAccepted`'s, the v3 job routes are named after each
/// ``Pipeline``'s `v3Segment`). A server that lists its endpoints in its capabilities (production's
/// `features[].endpoints`) is taken at its word instead (``init(endpoint:)``).
package struct KnownRoute: Sendable, Hashable, CustomStringConvertible {
    /// `GET`, `POST`, …; nil when a server's list named the path alone.
    package var method: String?
    /// The path without its query, `{name}` where an id goes.
    package var path: String

    package init(_ method: String?, _ path: String) {
        self.method = method.map { $0.uppercased() }
        self.path = path
    }

    /// A capabilities endpoint: `GET /v1/jobs/{jobId}/status`, `GET /api/v2/search?mode=text` (the
    /// query is dropped), or a bare path; nil for anything else (a path must start with one `/`).
    package init?(endpoint: String) {
        let parts = endpoint.split(separator: " ", omittingEmptySubsequences: true)
        guard (1...2).contains(parts.count), let last = parts.last else { return nil }
        var path = String(last)
        if let question = path.firstIndex(of: "?") { path = String(path[..<question]) }
        guard path.hasPrefix("/"), !path.hasPrefix("//"), path.utf8.count <= 300,
            path.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        else { return nil }
        let method = parts.count == 2 ? parts[0].uppercased() : nil
        if let method, !BooksTrackAPI.rawMethods.contains(method) { return nil }
        self.init(method, path)
    }

    /// What TAB inserts: the path up to its first placeholder (`/v1/jobs/` for
    /// `/v1/jobs/{jobId}/status`), the whole path when it has none.
    package var typedPrefix: String {
        guard let brace = path.firstIndex(of: "{") else { return path }
        return String(path[..<brace])
    }

    /// Whether the path has no placeholder (TAB inserts it whole).
    package var isComplete: Bool { !path.contains("{") }

    /// `GET /v1/jobs/{jobId}/status`.
    package var description: String { method.map { "\($0) \(path)" } ?? path }

    /// The path with its placeholders replaced, in order, by `values` (each already a path segment:
    /// `BooksTrackAPI.pathSegment`); a placeholder without a value is left empty.
    package func path(_ values: String...) -> String {
        var filled = ""
        var remaining = values[...]
        var inside = false
        for character in path {
            switch (character, inside) {
            case ("{", false):
                inside = true
                filled += remaining.popFirst() ?? ""
            case ("}", true): inside = false
            case (_, true): break
            default: filled.append(character)
            }
        }
        return filled
    }

    /// Whether the route answers `method` (a route of unknown method answers any).
    package func accepts(_ method: String) -> Bool { self.method == nil || self.method == method.uppercased() }

    // The routes with an id in them.
    /// A job's status (imports, and batch jobs on the stand-in and newer production routers).
    package static let importStatus = KnownRoute("GET", ImportAccepted.defaultStatusURL(jobId: "{jobId}"))
    /// A job's results (imports).
    package static let importResults = KnownRoute("GET", ImportAccepted.defaultStatusURL(jobId: "{jobId}") + "/results")
    /// A job's progress as Server-Sent Events.
    package static let importStream = KnownRoute("GET", ImportAccepted.defaultSSEURL(jobId: "{jobId}"))
    /// A job's status on production's older routers.
    package static let jobStatus = KnownRoute("GET", "/v1/jobs/{jobId}/status")
    /// A job's results (batch jobs).
    package static let jobResults = KnownRoute("GET", "/v1/jobs/{jobId}/results")
    /// Cancels a job.
    package static let jobCancel = KnownRoute("DELETE", "/v1/jobs/{jobId}")
    /// Cancels a job (the seeds' second route).
    package static let jobCancelV2 = KnownRoute("DELETE", "/api/v2/jobs/{jobId}/cancel")
    /// A bookshelf scan's results.
    package static let scanResults = KnownRoute("GET", "/v1/scan/results/{jobId}")
    /// v3's lookup of one book.
    package static let v3Book = KnownRoute("GET", "/v3/books/{isbn}")

    /// v3's route of a `pipeline`'s job (`suffix`: `/results`, `/stream`, or none for its status;
    /// DELETE at the status route cancels it).
    package static func v3Job(_ pipeline: Pipeline, suffix: String = "", method: String = "GET") -> KnownRoute {
        KnownRoute(method, "/v3/jobs/\(pipeline.v3Segment)/{jobId}" + suffix)
    }

    /// The v1/v2 routes (the stand-in's first dialect, older deployments).
    package static let v1: [KnownRoute] = [
        KnownRoute("GET", APIPath.health),
        KnownRoute("GET", APIPath.isbnSearch), KnownRoute("GET", APIPath.titleSearch),
        KnownRoute("GET", APIPath.authorSearch), KnownRoute("GET", APIPath.advancedSearch),
        KnownRoute("GET", APIPath.similarSearch), KnownRoute("GET", APIPath.search),
        KnownRoute("GET", APIPath.capabilities), KnownRoute("GET", APIPath.weekly),
        KnownRoute("POST", APIPath.enrich),
        KnownRoute("POST", APIPath.batchEnrichment), KnownRoute("POST", APIPath.batchEnrichmentOld),
        KnownRoute("POST", APIPath.imports), importStatus, importResults, importStream,
        jobStatus, jobResults, jobCancel, jobCancelV2,
        KnownRoute("POST", APIPath.bookshelfScan), scanResults,
        KnownRoute("POST", APIPath.tokenRefresh),
    ]

    /// The v3 routes (today's production).
    package static let v3: [KnownRoute] = {
        var routes = [
            KnownRoute("GET", APIPath.health),
            KnownRoute("GET", APIPath.v3Capabilities), KnownRoute("GET", APIPath.v3Search),
            v3Book, KnownRoute("POST", APIPath.v3Enrich),
            KnownRoute("GET", APIPath.v3Weekly), KnownRoute("GET", APIPath.v3Personalized),
            KnownRoute("POST", APIPath.v3Imports), KnownRoute("POST", APIPath.v3Scans),
        ]
        for pipeline in [Pipeline.csvImport, .batchEnrichment, .bookshelfScan] {
            routes += [
                v3Job(pipeline), v3Job(pipeline, suffix: "/results"), v3Job(pipeline, suffix: "/stream"),
                v3Job(pipeline, method: "DELETE"),
            ]
        }
        return routes
    }()

    /// The routes the client knows for `dialect`; every dialect's when it is not known.
    package static func known(for dialect: APIDialect?) -> [KnownRoute] {
        switch dialect {
        case .v1?: return v1
        case .v3?: return v3
        case nil: return v1 + v3.filter { !v1.contains($0) }
        }
    }
}
