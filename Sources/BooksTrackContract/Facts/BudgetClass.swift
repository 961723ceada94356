import Foundation

/// A rate-limit class (docs/contract.md §7), with its documented default budget. The stand-in makes
/// each configurable; clients must trust the `X-RateLimit-*` headers over this table.
package enum BudgetClass: String, Codable, Sendable, Hashable, CaseIterable {
    /// `/v1/search/isbn|title|author|advanced`, `/api/v2/search?mode=text`: 100/min.
    case search
    /// `/api/v2/search?mode=semantic|hybrid`: 5/min.
    case semantic
    /// `/v1/search/similar`, `mode=similar`: 10/min.
    case similar
    /// `POST /api/v2/books/enrich`: 5/min.
    case enrich
    /// `POST /api/batch-enrich`, `/v1/enrichment/batch`: 10/min.
    case batch
    /// `POST /api/v2/imports`: 5/min.
    case `import`
    /// `POST /v3/jobs/scans`, `POST /v1/scan/bookshelf` (a bookshelf scan): 5/min (the seeds' AI scan class).
    case scan
    /// Job status, results, cancel, and `POST /api/token/refresh` (a job route of §6): 30/min.
    case jobs
    /// Everything: 1000/hour.
    case global

    /// The documented number of requests per window.
    package var defaultLimit: Int {
        switch self {
        case .search: return 100
        case .semantic: return 5
        case .similar: return 10
        case .enrich: return 5
        case .batch: return 10
        case .import: return 5
        case .scan: return 5
        case .jobs: return 30
        case .global: return 1000
        }
    }

    /// The class's position in `allCases`.
    package var ordinal: Int {
        switch self {
        case .search: return 0
        case .semantic: return 1
        case .similar: return 2
        case .enrich: return 3
        case .batch: return 4
        case .import: return 5
        case .scan: return 6
        case .jobs: return 7
        case .global: return 8
        }
    }

    /// Hashes the case, not its name: hashing the name (`RawRepresentable`'s default) would hash a
    /// string at every look-up.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(UInt8(truncatingIfNeeded: ordinal))
    }

    /// The documented window in seconds (60, or 3600 for `global`).
    package var defaultWindowSeconds: Int { self == .global ? 3600 : 60 }

    /// The documented budget.
    package var defaultBudget: Budget { Budget(limit: defaultLimit, windowSeconds: defaultWindowSeconds) }

    /// The class of a request (besides `global`, which applies to everything), or nil for
    /// unlimited routes (capabilities, recommendations, SSE stream, health). The one route
    /// classifier of the package: the server limits and the client budgets by it. `path` may carry its query; paths compare case-insensitively.
    /// `mode` is the v2 search `mode` parameter and `q` its query (a `q=similar:` prefix forces
    /// `similar`); when not given they are read from the path's query.
    package static func classify(
        method: String,
        path: String,
        mode: String? = nil,
        query q: String? = nil
    ) -> BudgetClass? {
        // Every request passes here (client and server): the query is read only for the v2
        // search route, and an ASCII path without capitals is not lowercased.
        var isPOST: Bool { method.uppercased() == "POST" }
        let question = path.utf8.firstIndex(of: UInt8(ascii: "?"))
        var p = Self.lowercased(question.map { path[..<$0] } ?? path[...])
        while p.utf8.count > 1, p.hasSuffix("/") { p.removeLast() }
        switch p {
        case APIPath.isbnSearch, APIPath.titleSearch, APIPath.authorSearch, APIPath.advancedSearch: return .search
        case APIPath.similarSearch: return .similar
        case APIPath.search:
            let items = question.map { queryItems(String(path[path.index(after: $0)...])) } ?? [:]
            let mode = mode ?? items["mode"]
            let q = q ?? items["q"]
            if let q, q.lowercased().hasPrefix("similar:") { return .similar }
            switch (mode ?? "text").lowercased() {
            case "semantic", "hybrid": return .semantic
            case "similar": return .similar
            default: return .search
            }
        case APIPath.enrich: return isPOST ? .enrich : nil
        case APIPath.batchEnrichmentOld, APIPath.batchEnrichment: return isPOST ? .batch : nil
        case APIPath.imports: return isPOST ? .import : nil
        case APIPath.tokenRefresh: return isPOST ? .jobs : nil
        // API v3 (bendv3 src/api-v3/index.ts, jobs/*.ts @ e40ae5d): search and lookup share the
        // search class; a job's creation is its pipeline's class, its status/results/cancel `jobs`.
        case APIPath.v3Search: return .search
        case APIPath.v3Enrich: return isPOST ? .enrich : nil
        case APIPath.v3Imports: return isPOST ? .import : nil
        case APIPath.v3Scans, APIPath.bookshelfScan: return isPOST ? .scan : nil
        default: break
        }
        let parts = p.split(separator: "/")
        if parts.count >= 2, parts[0] == "v3" {
            // /v3/books/{isbn}
            if parts.count == 3, parts[1] == "books" { return .search }
            // /v3/jobs/{pipeline}/{id}[/results] (the /stream route is not limited)
            if parts.count >= 4, parts[1] == "jobs" { return parts.last == "stream" ? nil : .jobs }
            return nil
        }
        // /api/v2/imports/{id}, /api/v2/imports/{id}/results (the /stream route is not limited)
        if parts.count >= 4, parts[0] == "api", parts[1] == "v2", parts[2] == "imports" {
            return parts.last == "stream" ? nil : .jobs
        }
        // /v1/jobs/{id}, /v1/jobs/{id}/results, /api/v2/jobs/{id}/cancel
        if parts.count >= 3, parts[0] == "v1", parts[1] == "jobs" { return .jobs }
        // /v1/scan/results/{id}
        if parts.count >= 4, parts[0] == "v1", parts[1] == "scan", parts[2] == "results" { return .jobs }
        if parts.count >= 4, parts[0] == "api", parts[1] == "v2", parts[2] == "jobs" { return .jobs }
        return nil
    }

    /// `text` lowercased (as is when it is ASCII without capitals).
    private static func lowercased(_ text: Substring) -> String {
        text.utf8.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
            ? String(text) : text.lowercased()
    }

    /// `a=1&b=x+y` → `["a": "1", "b": "x y"]` (percent-decoded; the first of a repeated key wins).
    private static func queryItems(_ query: String) -> [String: String] {
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawKey = keyValue.first else { continue }
            let decode = { (text: Substring) -> String in
                let plusAsSpace = text.replacingOccurrences(of: "+", with: " ")
                return plusAsSpace.removingPercentEncoding ?? plusAsSpace
            }
            let key = decode(rawKey)
            if items[key] == nil { items[key] = keyValue.count > 1 ? decode(keyValue[1]) : "" }
        }
        return items
    }
}

/// A request budget: `limit` requests per `windowSeconds`.
package struct Budget: Codable, Sendable, Hashable {
    package var limit: Int
    package var windowSeconds: Int
    package init(limit: Int, windowSeconds: Int) {
        self.limit = limit
        self.windowSeconds = windowSeconds
    }
}
