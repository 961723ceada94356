import Foundation
import NIOHTTP1

/// One logical API call, before retries: what to send and how to treat it.
struct RequestSpec: Sendable {
    enum Body: Sendable {
        case none
        case json(Data)
        case multipart(MultipartFileBody)
    }

    var method: HTTPMethod
    /// The route path (`/v1/search/isbn`), joined to the base URL's path.
    var path: String
    var query: [(name: String, value: String)] = []
    var headers: [HeaderField] = []
    var body: Body = .none
    /// The rate-limit class the request is budgeted under before it is sent, derived here for every
    /// request from the contract's one classifier (`nil`: an unlimited route). A response's
    /// `X-RateLimit-Class` overrides it when the limits are booked (the server's word wins).
    var rateLimitClass: RateLimitClass? {
        BooksTrackAPI.rateLimitClass(
            method: method.rawValue,
            path: path,
            mode: queryValue("mode"),
            query: queryValue("q")
        )
    }
    /// The request creates work on the server (POST enrich/batch/import).
    var createsWork = false
    /// The request carries an idempotency key or client-made job id, so repeating it is safe.
    var hasIdempotencyKey = false
    /// Retry retryable failures (false for single-shot probes).
    var retries = true
    /// Per-attempt deadline override.
    var timeout: Duration?
    /// Cache a 2xx answer in memory for this long (unless the server's `max-age` says otherwise).
    var cacheTTL: Duration?
    /// The user-facing sentence for a 404.
    var notFoundMessage: String?
    /// What the route offers, for "This server does not offer …" when it answers a route-level 404
    /// ("ISBN lookup", "author search"); nil: the route as the server echoed it.
    var offering: String?
    /// Expected answer media type.
    var accept = "application/json"

    init(_ method: HTTPMethod, _ path: String, query: [(name: String, value: String)] = []) {
        self.method = method
        self.path = path
        self.query = query
    }

    /// The first value of query item `name`.
    func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The absolute URL string for `base`.
    func url(base: URL) -> String {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text + target
    }

    /// The path and the encoded query, as a request line carries them (`/v1/search/isbn?isbn=…`).
    var target: String {
        var text = path.hasPrefix("/") ? path : "/" + path
        if !query.isEmpty {
            text += "?" + query.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(separator: "&")
        }
        return text
    }

    /// Whether identical concurrent calls may share one request (and the cache).
    var isIdempotentRead: Bool { method == .GET }

    /// Percent-encodes every UTF-8 byte except RFC 3986's unreserved ones (`A-Z a-z 0-9 - . _ ~`),
    /// as Foundation's `addingPercentEncoding` with those characters allowed does (test), byte by
    /// byte, because Foundation's version is a visible share of a sequential lookup's client CPU.
    static func encode(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { !isUnreserved($0) }) else { return text }
        func hex(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(0x25)  // %
                bytes.append(hex(byte >> 4))
                bytes.append(hex(byte & 0x0F))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
