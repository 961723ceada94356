import Hummingbird

/// The routes the server registered (read from the router once built), used to tell
/// "no such route" (404) from "wrong method" (405 with `Allow`).
struct RouteTable: Sendable {
    struct Entry: Sendable {
        var method: HTTPRequest.Method
        var path: RouterPath
    }

    var entries: [Entry] = []

    init(entries: [Entry] = []) { self.entries = entries }

    init(_ routes: [Router<ServerRequestContext>.RouteDescription]) {
        self.entries = routes.map { Entry(method: $0.method, path: $0.path) }
    }

    /// Methods registered for a concrete request path.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var result: [HTTPRequest.Method] = []
        for entry in entries where Self.matches(entry.path, segments) {
            if !result.contains(entry.method) { result.append(entry.method) }
        }
        return result
    }

    static func matches(_ pattern: RouterPath, _ segments: [Substring]) -> Bool {
        let components = pattern.components
        if components.contains(where: { $0.description == "**" }) {
            return segments.count >= components.count - 1
        }
        guard components.count == segments.count else { return false }
        for (component, segment) in zip(components, segments) where !(component ~= segment) {
            return false
        }
        return true
    }
}
