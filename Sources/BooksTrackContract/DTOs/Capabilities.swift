/// A feature name of `/api/v2/capabilities` (open set). Lookups ignore case, `_` and `-`, so
/// `semantic_search` matches production's `semanticSearch` or `semantic-search`.
package struct CapabilityFeature: OpenStringEnum {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    package static let semanticSearch: CapabilityFeature = "semantic_search"
    package static let similarBooks: CapabilityFeature = "similar_books"
    package static let weeklyRecommendations: CapabilityFeature = "weekly_recommendations"
    package static let csvImport: CapabilityFeature = "csv_import"
    package static let batchEnrichment: CapabilityFeature = "batch_enrichment"
    package static let sseProgress: CapabilityFeature = "sse_progress"
    package static let jobCancellation: CapabilityFeature = "job_cancellation"
    /// Bookshelf scans (photos in, books out): the seeds' AI scan, v3's `/v3/jobs/scans`.
    package static let bookshelfScan: CapabilityFeature = "bookshelf_scan"

    /// The documented features, in document order.
    package static let documented: [CapabilityFeature] = [
        .semanticSearch, .similarBooks, .weeklyRecommendations, .csvImport, .batchEnrichment, .sseProgress,
        .jobCancellation, .bookshelfScan,
    ]

    /// Lower-case with `_`, `-` and spaces removed.
    package var normalized: String { Self.normalize(rawValue) }

    static func normalize(_ s: String) -> String {
        String(s.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }
}

/// Stand-in body of `GET /api/v2/capabilities` (bare, snake_case inside as documented).
package struct CapabilitiesResponse: Codable, Sendable, Hashable {
    package struct Limits: Codable, Sendable, Hashable {
        package var semanticSearchRPM: Int
        package var textSearchRPM: Int
        package var csvMaxRows: Int
        package var maxBatchSize: Int

        package init(
            semanticSearchRPM: Int = 5,
            textSearchRPM: Int = 100,
            csvMaxRows: Int = JobLimits.maxCSVRows,
            maxBatchSize: Int = JobLimits.maxBatchSize
        ) {
            self.semanticSearchRPM = semanticSearchRPM
            self.textSearchRPM = textSearchRPM
            self.csvMaxRows = csvMaxRows
            self.maxBatchSize = maxBatchSize
        }

        enum CodingKeys: String, CodingKey {
            case semanticSearchRPM = "semantic_search_rpm"
            case textSearchRPM = "text_search_rpm"
            case csvMaxRows = "csv_max_rows"
            case maxBatchSize = "max_batch_size"
        }
    }

    /// Feature name (`semantic_search`, ...) → enabled.
    package var features: [String: Bool]
    package var limits: Limits
    package var version: String

    package init(features: [String: Bool], limits: Limits = Limits(), version: String) {
        self.features = features
        self.limits = limits
        self.version = version
    }

    /// Every documented feature set to `enabled`.
    package static func allFeatures(_ enabled: Bool = true) -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: CapabilityFeature.documented.map { ($0.rawValue, enabled) })
    }
}

/// Production `data` of `GET /api/v2/capabilities` (enveloped).
package struct ProductionCapabilities: Codable, Sendable, Hashable {
    package struct Feature: Codable, Sendable, Hashable {
        package var name: String
        package var enabled: Bool
        package var version: String?
        package var endpoints: [String]
        package var rateLimit: RateLimit?

        package init(
            name: String,
            enabled: Bool,
            version: String? = nil,
            endpoints: [String] = [],
            rateLimit: RateLimit? = nil
        ) {
            self.name = name
            self.enabled = enabled
            self.version = version
            self.endpoints = endpoints
            self.rateLimit = rateLimit
        }

        enum CodingKeys: String, CodingKey { case name, enabled, version, endpoints, rateLimit }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? false
            version = try c.decodeLenientString(forKey: .version)
            endpoints = try c.decodeArrayOrEmpty(String.self, forKey: .endpoints)
            rateLimit = try? c.decodeIfPresent(RateLimit.self, forKey: .rateLimit)
        }
    }

    package var apiVersion: String?
    package var features: [Feature]
    /// `maxBatchSize`, `maxCsvRows`, `maxConcurrentJobs`, ... as sent.
    package var limits: [String: JSONValue]
    package var deprecations: [JSONValue]

    package init(
        apiVersion: String?,
        features: [Feature],
        limits: [String: JSONValue] = [:],
        deprecations: [JSONValue] = []
    ) {
        self.apiVersion = apiVersion
        self.features = features
        self.limits = limits
        self.deprecations = deprecations
    }

    enum CodingKeys: String, CodingKey { case apiVersion, features, limits, deprecations }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        apiVersion = try c.decodeLenientString(forKey: .apiVersion)
        features = try c.decodeArrayOrEmpty(Feature.self, forKey: .features)
        limits = try c.decodeIfPresent([String: JSONValue].self, forKey: .limits) ?? [:]
        deprecations = try c.decodeArrayOrEmpty(JSONValue.self, forKey: .deprecations)
    }
}

/// A per-feature rate limit: `requests` per `windowMs`.
package struct RateLimit: Codable, Sendable, Hashable {
    package var requests: Int
    package var windowMs: Int
    package init(requests: Int, windowMs: Int) {
        self.requests = requests
        self.windowMs = windowMs
    }
}

/// Server capabilities normalized from the stand-in's or production's shape.
///
/// Decodes from either wire shape and from its own encoding (for the client's 1-hour cache).
package struct Capabilities: Codable, Sendable, Hashable {
    /// Which server dialect the capabilities came from.
    package enum Dialect: String, Codable, Sendable, Hashable {
        /// The documented shape (our stand-in).
        case standIn
        /// The deployed production shape.
        case production
    }

    /// Named limits (nil when the server did not say) plus everything as sent.
    package struct Limits: Codable, Sendable, Hashable {
        package var semanticSearchRPM: Int?
        package var textSearchRPM: Int?
        package var csvMaxRows: Int?
        package var maxBatchSize: Int?
        package var maxConcurrentJobs: Int?
        package var raw: [String: JSONValue]

        package init(
            semanticSearchRPM: Int? = nil,
            textSearchRPM: Int? = nil,
            csvMaxRows: Int? = nil,
            maxBatchSize: Int? = nil,
            maxConcurrentJobs: Int? = nil,
            raw: [String: JSONValue] = [:]
        ) {
            self.semanticSearchRPM = semanticSearchRPM
            self.textSearchRPM = textSearchRPM
            self.csvMaxRows = csvMaxRows
            self.maxBatchSize = maxBatchSize
            self.maxConcurrentJobs = maxConcurrentJobs
            self.raw = raw
        }
    }

    /// Feature name as sent → enabled.
    package var features: [String: Bool]
    package var limits: Limits
    package var version: String?
    package var dialect: Dialect
    /// Feature name → rate limit (production only).
    package var rateLimits: [String: RateLimit]
    /// Production's deprecation notices, as sent.
    package var deprecations: [JSONValue]
    /// Feature name → why it is off, when the server says (the stand-in's `unavailable`: semantic
    /// search without the sentence model).
    package var unavailableReasons: [String: String]
    /// Feature name → the routes it lists, as sent (production's `endpoints`: `GET /v1/jobs/{jobId}/status`).
    package var endpoints: [String: [String]] = [:]

    package init(
        features: [String: Bool],
        limits: Limits,
        version: String?,
        dialect: Dialect,
        rateLimits: [String: RateLimit] = [:],
        deprecations: [JSONValue] = [],
        unavailableReasons: [String: String] = [:]
    ) {
        self.features = features
        self.limits = limits
        self.version = version
        self.dialect = dialect
        self.rateLimits = rateLimits
        self.deprecations = deprecations
        self.unavailableReasons = unavailableReasons
    }

    package init(_ r: CapabilitiesResponse) {
        let raw: [String: JSONValue] = [
            "semantic_search_rpm": .number(Double(r.limits.semanticSearchRPM)),
            "text_search_rpm": .number(Double(r.limits.textSearchRPM)),
            "csv_max_rows": .number(Double(r.limits.csvMaxRows)),
            "max_batch_size": .number(Double(r.limits.maxBatchSize)),
        ]
        self.init(
            features: r.features,
            limits: Limits(
                semanticSearchRPM: r.limits.semanticSearchRPM,
                textSearchRPM: r.limits.textSearchRPM,
                csvMaxRows: r.limits.csvMaxRows,
                maxBatchSize: r.limits.maxBatchSize,
                raw: raw
            ),
            version: r.version,
            dialect: .standIn
        )
    }

    package init(_ p: ProductionCapabilities) {
        var features: [String: Bool] = [:]
        var rates: [String: RateLimit] = [:]
        var endpoints: [String: [String]] = [:]
        for f in p.features {
            features[f.name] = f.enabled
            if let r = f.rateLimit { rates[f.name] = r }
            if !f.endpoints.isEmpty { endpoints[f.name] = f.endpoints }
        }
        let l = p.limits
        self.init(
            features: features,
            limits: Limits(
                semanticSearchRPM: (l["semanticSearchRpm"] ?? l["semanticSearchRPM"] ?? l["semantic_search_rpm"])?
                    .intValue,
                textSearchRPM: (l["textSearchRpm"] ?? l["textSearchRPM"] ?? l["text_search_rpm"])?.intValue,
                csvMaxRows: (l["maxCsvRows"] ?? l["csvMaxRows"] ?? l["csv_max_rows"])?.intValue,
                maxBatchSize: (l["maxBatchSize"] ?? l["max_batch_size"])?.intValue,
                maxConcurrentJobs: (l["maxConcurrentJobs"] ?? l["max_concurrent_jobs"])?.intValue,
                raw: l
            ),
            version: p.apiVersion,
            dialect: .production,
            rateLimits: rates,
            deprecations: p.deprecations
        )
        self.endpoints = endpoints
        if self.limits.semanticSearchRPM == nil, let r = rate(for: .semanticSearch), r.windowMs > 0 {
            self.limits.semanticSearchRPM = r.requests * 60_000 / r.windowMs
        }
    }

    /// Whether the server meters requests at all (the stand-in's `limits.rate_limits_enabled`;
    /// `nil`: it did not say, as production does not).
    package var rateLimitsEnabled: Bool? {
        if case .bool(let enabled)? = limits.raw["rate_limits_enabled"] { return enabled }
        return nil
    }

    /// Whether `feature` is enabled: `nil` means the server did not say (treat as unknown).
    ///
    /// Production has no `similar_books`: there, `similarBooks` follows `semantic_search`.
    package func isEnabled(_ feature: CapabilityFeature) -> Bool? {
        if let v = lookup(feature.normalized, in: features) { return v }
        if feature == .similarBooks, dialect == .production {
            return lookup(CapabilityFeature.semanticSearch.normalized, in: features)
        }
        return nil
    }

    /// Why `feature` is off, when the server said.
    package func unavailableReason(_ feature: CapabilityFeature) -> String? {
        lookup(feature.normalized, in: unavailableReasons)
    }

    /// The rate limit the server announced for `feature`, if any.
    package func rate(for feature: CapabilityFeature) -> RateLimit? {
        lookup(feature.normalized, in: rateLimits)
    }

    private func lookup<V>(_ normalized: String, in dict: [String: V]) -> V? {
        if let exact = dict.first(where: { CapabilityFeature.normalize($0.key) == normalized }) { return exact.value }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case features, limits, version, dialect, rateLimits, deprecations, unavailableReasons, endpoints
    }

    /// Accepts the stand-in shape, production's shape, or this type's own encoding.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let dialect = try? c.decode(Dialect.self, forKey: .dialect) {
            self.init(
                features: try c.decode([String: Bool].self, forKey: .features),
                limits: try c.decode(Limits.self, forKey: .limits),
                version: try c.decodeIfPresent(String.self, forKey: .version),
                dialect: dialect,
                rateLimits: try c.decodeIfPresent([String: RateLimit].self, forKey: .rateLimits) ?? [:],
                deprecations: try c.decodeIfPresent([JSONValue].self, forKey: .deprecations) ?? [],
                unavailableReasons: try c.decodeIfPresent([String: String].self, forKey: .unavailableReasons) ?? [:]
            )
            endpoints = try c.decodeIfPresent([String: [String]].self, forKey: .endpoints) ?? [:]
            return
        }
        let single = try decoder.singleValueContainer()
        let probe = try single.decode(JSONValue.self)
        if probe["features"]?.arrayValue != nil || probe["apiVersion"] != nil {
            self.init(try single.decode(ProductionCapabilities.self))
            return
        }
        // Stand-in shape, decoded leniently (unknown limits kept in `raw`).
        let featuresJSON = probe["features"]?.objectValue ?? [:]
        let limitsJSON = probe["limits"]?.objectValue ?? [:]
        var flags: [String: Bool] = [:]
        for (k, v) in featuresJSON { if let b = v.boolValue { flags[k] = b } }
        var reasons: [String: String] = [:]
        for (k, v) in probe["unavailable"]?.objectValue ?? [:] { if let why = v.stringValue { reasons[k] = why } }
        self.init(
            features: flags,
            limits: Limits(
                semanticSearchRPM: limitsJSON["semantic_search_rpm"]?.intValue,
                textSearchRPM: limitsJSON["text_search_rpm"]?.intValue,
                csvMaxRows: limitsJSON["csv_max_rows"]?.intValue,
                maxBatchSize: limitsJSON["max_batch_size"]?.intValue,
                maxConcurrentJobs: limitsJSON["max_concurrent_jobs"]?.intValue,
                raw: limitsJSON
            ),
            version: probe["version"]?.stringValue,
            dialect: .standIn,
            unavailableReasons: reasons
        )
    }
}
