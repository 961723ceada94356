import BooksTrackContract
import Foundation

/// A 404 that says the *route* does not exist, not the book or job it named: production's
/// `app.notFound` answers `Endpoint not found: METHOD /path` (bendv3 `src/router.ts` @ e40ae5d,
/// every v1/v2 path since 3.0.0), the stand-in `No route for …`.
enum RouteGone {
    /// `METHOD /path` of a route-level 404 (the path as the server echoed it, else "that route"); nil
    /// for any other error.
    static func route(of info: APIErrorInfo) -> String? {
        guard info.httpStatus == 404 || info.httpStatus == 405 else { return nil }
        let text = info.message.trimmingCharacters(in: .whitespaces)
        for prefix in ["Endpoint not found:", "No route for"] where text.lowercased().hasPrefix(prefix.lowercased()) {
            let rest = text.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
            let printable = rest.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
            return printable && !rest.isEmpty && rest.count <= 200 ? rest : "that route"
        }
        return nil
    }
}
