import BooksTrackContract

/// The capabilities body the stand-in sends: the documented bare shape
/// `{features, limits: {semantic_search_rpm, text_search_rpm, csv_max_rows, max_batch_size}, version}`
/// (a feature is true only when it is switched on and some route module serves it)
/// plus extra limit keys (the other classes' per-minute figures, `global_per_hour`,
/// `rate_limits_enabled`). It is not `CapabilitiesResponse` because a switched-off limit is omitted
/// (truthful) rather than given a made-up number; clients decode it with `Capabilities`. A feature
/// that is off for a reason other than the configuration has it in `unavailable` (feature → one
/// sentence: semantic search without the sentence model).
struct CapabilitiesBody: Encodable, Sendable {
    var features: [String: Bool]
    var limits: [String: JSONValue]
    var version: String
    var unavailable: [String: String]?

    init(
        configuration: ServerConfiguration,
        isAvailable: (ServerFeature) -> Bool,
        reason: (ServerFeature) -> String? = { _ in nil }
    ) {
        features = Dictionary(uniqueKeysWithValues: CapabilityFeature.documented.map { ($0.rawValue, isAvailable($0)) })
        var reasons: [String: String] = [:]
        for feature in CapabilityFeature.documented where !isAvailable(feature) {
            if let why = reason(feature) { reasons[feature.rawValue] = why }
        }
        unavailable = reasons.isEmpty ? nil : reasons
        let rules = configuration.effectiveRateLimits
        var limits: [String: JSONValue] = [
            "csv_max_rows": .number(Double(JobLimits.maxCSVRows)),
            "max_batch_size": .number(Double(JobLimits.maxBatchSize)),
            "max_csv_bytes": .number(Double(JobLimits.maxCSVBytes)),
            "rate_limits_enabled": .bool(configuration.rateLimitsEnabled),
        ]
        let perMinute: [(String, BudgetClass)] = [
            ("semantic_search_rpm", .semantic), ("text_search_rpm", .search), ("similar_rpm", .similar),
            ("enrich_rpm", .enrich), ("batch_rpm", .batch), ("import_rpm", .import), ("jobs_rpm", .jobs),
        ]
        for (key, limitClass) in perMinute {
            if let rule = rules[limitClass] { limits[key] = .number(Double(rule.requestsPerMinute)) }
        }
        if let global = rules[.global] {
            limits["global_per_hour"] = .number(Double(global.limit * 3600 / global.windowSeconds))
        }
        self.limits = limits
        version = configuration.version
    }
}
