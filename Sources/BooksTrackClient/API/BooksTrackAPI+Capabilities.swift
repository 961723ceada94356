import BooksTrackContract
import Foundation

/// What `connect()` found.
package struct ConnectResult: Sendable {
    /// The capabilities in effect (`nil`: unknown).
    package var capabilities: Capabilities?
    package var source: CapabilitiesSource
    /// Why the server could not be asked (offline); `nil` when it answered or the cache was fresh.
    package var error: BooksTrackError?
}

extension BooksTrackAPI {
    /// `GET /v3/capabilities`, else `GET /api/v2/capabilities` (negotiating the dialect) — every shape, normalized. Updates `capabilities`, the disk cache
    /// and the rate-limit ledger.
    package func fetchCapabilities() async throws(BooksTrackError) -> APIResponse<Capabilities> {
        let (response, dialect) = try await fetchCapabilitiesNegotiating()
        negotiatedDialect = dialect
        adopt(response.value, source: .server)
        if let dir = configuration.cacheDirectory {
            CapabilitiesDiskCache(directory: dir, baseURL: configuration.baseURL, identity: configuration.cacheIdentity)
                .store(response.value, dialect: dialect, at: configuration.now())
        }
        return response
    }

    /// Loads capabilities: the fresh disk copy (under `capabilitiesTTL`) unless `refresh`, else the
    /// server; offline, a stale disk copy; else unknown (gated commands report `.unknown`).
    @discardableResult
    package func connect(refresh: Bool = false) async -> ConnectResult {
        let disk = configuration.cacheDirectory.map {
            CapabilitiesDiskCache(directory: $0, baseURL: configuration.baseURL, identity: configuration.cacheIdentity)
        }
        let cached = disk?.load()
        let now = configuration.now()
        let age = cached.map { Duration.seconds(max(0, now.timeIntervalSince1970 - $0.fetchedAt)) }
        if !refresh, let cached, let age, age < configuration.capabilitiesTTL, cached.dialect != nil {
            negotiatedDialect = cached.dialect
            adopt(cached.capabilities, source: .cache(age: age))
            return ConnectResult(capabilities: cached.capabilities, source: .cache(age: age), error: nil)
        }
        do {
            let response = try await fetchCapabilities()
            lastConnectError = nil
            return ConnectResult(capabilities: response.value, source: .server, error: nil)
        } catch {
            lastConnectError = error
            if let cached, let age, error.category == .network || error.kind == .decoding || error.category == .api {
                if negotiatedDialect == nil { negotiatedDialect = cached.dialect }
                adopt(cached.capabilities, source: .staleCache(age: age))
                return ConnectResult(capabilities: cached.capabilities, source: .staleCache(age: age), error: error)
            }
            if capabilities == nil { capabilitiesSource = .none }
            return ConnectResult(capabilities: capabilities, source: capabilitiesSource, error: error)
        }
    }

    /// Whether a feature is available here (`similar_books` follows `semantic_search` on production).
    package func availability(of feature: CapabilityFeature) -> Availability {
        FeatureAvailability.availability(of: feature, capabilities: capabilities, dialect: dialect)
    }

    func adopt(_ caps: Capabilities, source: CapabilitiesSource) {
        capabilities = caps
        capabilitiesSource = source
        seedLedger(from: caps)
    }

    /// Seeds the ledger's windows from capability limits (headers, when seen, win).
    func seedLedger(from caps: Capabilities) {
        if caps.rateLimitsEnabled == false {
            ledger.markUnmetered()
            return
        }
        if let rpm = caps.limits.semanticSearchRPM, rpm > 0 { ledger.seed(.semantic, requests: rpm, per: .seconds(60)) }
        if let rpm = caps.limits.textSearchRPM, rpm > 0 { ledger.seed(.search, requests: rpm, per: .seconds(60)) }
        let byFeature: [(CapabilityFeature, RateLimitClass)] = [
            (.semanticSearch, .semantic), (.similarBooks, .similar), (.csvImport, .import), (.batchEnrichment, .batch),
        ]
        for (feature, cls) in byFeature {
            if let rate = caps.rate(for: feature), rate.requests > 0, rate.windowMs > 0 {
                ledger.seed(cls, requests: rate.requests, per: .milliseconds(rate.windowMs))
            }
        }
    }
}
