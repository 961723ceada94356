/// Why a fault specification could not be parsed.
package struct FaultSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}

extension FaultRule {
    /// Parses `ROUTE=KIND[:arg...]`, the value of `--inject-fault`:
    ///
    /// - `circuit-open[:RETRY_MS[:PROVIDER]]` (default 30000 ms, provider `google_books`)
    /// - `internal-error` (alias `500`)
    /// - `html-502` (aliases `proxy-html`, `html`; any 5xx status: `html-503`)
    /// - `empty-503`, `empty-504`
    /// - `latency:MS`
    /// - `fail-first:N[:KIND...]` — the first N requests get KIND (default `internal-error`), then pass.
    ///
    /// ROUTE is a path prefix (`/v1/search`), optionally preceded by a method (`POST /api/v2/books/enrich`);
    /// `*` matches every route.
    package init(parsing spec: String) throws(FaultSpecError) {
        guard let eq = spec.firstIndex(of: "=") else {
            throw FaultSpecError(message: "fault '\(spec)' must look like ROUTE=KIND, e.g. /v1/search=circuit-open")
        }
        let (method, prefix) = try FaultRule.parseRoute(String(spec[..<eq]))
        let kindText = String(spec[spec.index(after: eq)...])
        var parts = kindText.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var times: Int?
        if parts.first?.lowercased() == "fail-first" {
            guard parts.count >= 2, let n = Int(parts[1]), n >= 0 else {
                throw FaultSpecError(message: "fail-first needs a count: ROUTE=fail-first:N[:KIND]")
            }
            times = n
            parts.removeFirst(2)
            if parts.isEmpty { parts = ["internal-error"] }
        }
        let action = try FaultAction(parts: parts)
        self.init(pathPrefix: prefix, method: method, action: action, times: times)
    }

    /// Parses `ROUTE=MS`, the value of `--latency`.
    package init(parsingLatency spec: String) throws(FaultSpecError) {
        guard let eq = spec.firstIndex(of: "="), let ms = Int(spec[spec.index(after: eq)...]), ms >= 0 else {
            throw FaultSpecError(message: "latency '\(spec)' must look like ROUTE=MILLISECONDS, e.g. /v1/search=250")
        }
        let (method, prefix) = try FaultRule.parseRoute(String(spec[..<eq]))
        self.init(pathPrefix: prefix, method: method, action: .latency(milliseconds: ms))
    }

    static func parseRoute(_ text: String) throws(FaultSpecError) -> (String?, String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words.count {
        case 1:
            return (nil, try checkedPrefix(words[0]))
        case 2:
            return (words[0].uppercased(), try checkedPrefix(words[1]))
        default:
            throw FaultSpecError(message: "fault route '\(text)' must be a path prefix such as /v1/search")
        }
    }

    static func checkedPrefix(_ text: String) throws(FaultSpecError) -> String {
        if text == "*" { return "" }
        guard text.hasPrefix("/") else {
            throw FaultSpecError(message: "fault route '\(text)' must start with '/' (or be '*')")
        }
        return text
    }
}

extension FaultAction {
    init(parts: [String]) throws(FaultSpecError) {
        guard let head = parts.first?.lowercased(), !head.isEmpty else {
            throw FaultSpecError(message: "missing fault kind")
        }
        let args = Array(parts.dropFirst())
        func int(_ index: Int, default value: Int) throws(FaultSpecError) -> Int {
            guard index < args.count, !args[index].isEmpty else { return value }
            guard let n = Int(args[index]), n >= 0 else {
                throw FaultSpecError(
                    message: "'\(args[index])' is not a number in fault '\(parts.joined(separator: ":"))'"
                )
            }
            return n
        }
        switch head {
        case "circuit-open", "circuit_open", "circuit":
            let provider = args.count > 1 && !args[1].isEmpty ? args[1] : "google_books"
            self = .circuitOpen(retryAfterMs: try int(0, default: 30_000), provider: provider)
        case "internal-error", "internal_error", "500":
            self = .internalError
        case "html", "proxy-html", "html-502", "502":
            self = .proxyHTML(status: 502)
        case "latency", "delay":
            guard !args.isEmpty else { throw FaultSpecError(message: "latency needs milliseconds: latency:MS") }
            self = .latency(milliseconds: try int(0, default: 0))
        default:
            if head.hasPrefix("html-"), let status = Int(head.dropFirst(5)), (500...599).contains(status) {
                self = .proxyHTML(status: status)
            } else if head.hasPrefix("empty-"), let status = Int(head.dropFirst(6)), (500...599).contains(status) {
                self = .emptyBody(status: status)
            } else {
                throw FaultSpecError(
                    message: "unknown fault kind '\(head)' (circuit-open, internal-error, html-502, empty-503, "
                        + "empty-504, latency:MS, fail-first:N[:KIND])"
                )
            }
        }
    }
}
