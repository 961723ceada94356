/// What an injected fault does to a matching request.
package enum FaultAction: Sendable, Hashable, CustomStringConvertible {
    /// 503 `CIRCUIT_OPEN` envelope with `retryAfterMs` (and `provider`).
    case circuitOpen(retryAfterMs: Int, provider: String?)
    /// 500 `INTERNAL_ERROR` envelope.
    case internalError
    /// A proxy-style HTML error page (default status 502), as a load balancer would send.
    case proxyHTML(status: Int)
    /// An empty body with this status (503 or 504), as a proxy timeout would send.
    case emptyBody(status: Int)
    /// Waits this long, then lets the request through.
    case latency(milliseconds: Int)

    package var description: String {
        switch self {
        case .circuitOpen(let ms, let provider):
            return "circuit-open:\(ms)" + (provider.map { ":\($0)" } ?? "")
        case .internalError: return "internal-error"
        case .proxyHTML(let status): return "html-\(status)"
        case .emptyBody(let status): return "empty-\(status)"
        case .latency(let ms): return "latency:\(ms)"
        }
    }

    /// True when the action answers the request itself (everything but latency).
    package var isTerminal: Bool {
        if case .latency = self { return false }
        return true
    }
}

/// A fault rule: requests whose path starts with `pathPrefix` (and, when set, whose method is
/// `method`) get `action`. With `times` set, only the first `times` matching requests are affected
/// ("fail the first N, then succeed"); `nil` means every matching request.
package struct FaultRule: Sendable, Hashable, CustomStringConvertible {
    package var pathPrefix: String
    package var method: String?
    package var action: FaultAction
    package var times: Int?

    package init(pathPrefix: String, method: String? = nil, action: FaultAction, times: Int? = nil) {
        self.pathPrefix = pathPrefix
        self.method = method?.uppercased()
        self.action = action
        self.times = times.map { max(0, $0) }
    }

    /// True when the rule applies to this method and path (prefix match on path segments' text).
    package func matches(method requestMethod: String, path: String) -> Bool {
        if let method, method != requestMethod.uppercased() { return false }
        return pathPrefix.isEmpty || pathPrefix == "*" || path.hasPrefix(pathPrefix)
    }

    package var description: String {
        let route = (method.map { "\($0) " } ?? "") + pathPrefix
        if let times { return "\(route)=fail-first:\(times):\(action)" }
        return "\(route)=\(action)"
    }
}
