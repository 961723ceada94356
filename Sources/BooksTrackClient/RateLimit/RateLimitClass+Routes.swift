import Foundation

extension RateLimitClass {
    /// The budget class of a request (CONTRACT.md §7), from its method and path (query included), or
    /// nil for routes with no class of their own (only ``global`` applies, e.g. capabilities).
    ///
    /// `/api/v2/search` goes by `mode` (text by default); `q=similar:<isbn>` forces similar.
    public static func forRequest(method: String, path: String) -> RateLimitClass? {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let route = parts.first.map { String($0).lowercased() } ?? ""
        let trimmed = route.count > 1 && route.hasSuffix("/") ? String(route.dropLast()) : route
        let query = parts.count > 1 ? Self.queryItems(String(parts[1])) : [:]
        let method = method.uppercased()
        let segments = trimmed.split(separator: "/").map(String.init)

        switch trimmed {
        case "/v1/search/isbn", "/v1/search/title", "/v1/search/author", "/v1/search/advanced":
            return .search
        case "/v1/search/similar":
            return .similar
        case "/api/v2/search":
            if let q = query["q"], q.lowercased().hasPrefix("similar:") { return .similar }
            switch query["mode"]?.lowercased() {
            case "semantic", "hybrid": return .semantic
            case "similar": return .similar
            default: return .search
            }
        case "/api/v2/books/enrich":
            return method == "POST" ? .enrich : nil
        case "/api/batch-enrich", "/v1/enrichment/batch":
            return method == "POST" ? .batch : nil
        case "/api/v2/imports":
            return method == "POST" ? .import : nil
        default:
            break
        }
        // Job routes: status, results, cancel (the SSE stream has no class of its own).
        if segments.count >= 4, segments[0] == "api", segments[1] == "v2", segments[2] == "imports" {
            if segments.count == 4 { return .jobs }
            return segments[4] == "results" ? .jobs : nil
        }
        if segments.count >= 3, segments[0] == "v1", segments[1] == "jobs" {
            return .jobs
        }
        if segments.count >= 4, segments[0] == "api", segments[1] == "v2", segments[2] == "jobs" {
            return .jobs
        }
        return nil
    }

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
