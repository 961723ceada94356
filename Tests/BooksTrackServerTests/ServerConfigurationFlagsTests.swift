import BooksTrackContract
import BooksTrackServer
import BooksTrackSupport
import Foundation
import NIOCore
import Testing

@Suite struct ServerConfigurationFlagsTests {
    @Test func defaultsMatchTheContract() {
        let config = ServerConfiguration()
        #expect(config.host == "127.0.0.1" && config.port == KnownBackend.localPort)
        #expect(config.rateLimits[.search] == .perMinute(100))
        #expect(config.rateLimits[.semantic] == .perMinute(5))
        #expect(config.rateLimits[.similar] == .perMinute(10))
        #expect(config.rateLimits[.enrich] == .perMinute(5))
        #expect(config.rateLimits[.batch] == .perMinute(10))
        #expect(config.rateLimits[.import] == .perMinute(5))
        #expect(config.rateLimits[.jobs] == .perMinute(30))
        #expect(config.rateLimits[.global] == .perHour(1000))
        #expect(!config.faultInjectionEnabled)
        #expect(CapabilityFeature.documented.allSatisfy(config.isEnabled))
        #expect(
            config.jobs.heartbeatInterval == JobTimings.heartbeat
                && config.jobs.streamTimeout == JobTimings.streamTimeout
        )
    }

    /// The job engine's defaults are the contract's limits and timings (`JobLimits`, `JobTimings`).
    @Test func jobEngineDefaultsAreTheContracts() {
        let engine = JobEngineConfiguration(dataDirectory: URL(fileURLWithPath: "/nonexistent"))
        #expect(engine.maxCSVBytes == JobLimits.maxCSVBytes && engine.maxCSVRows == JobLimits.maxCSVRows)
        #expect(engine.maxBatchSize == JobLimits.maxBatchSize)
        #expect(engine.heartbeatInterval == JobTimings.heartbeat && engine.streamTimeout == JobTimings.streamTimeout)
        #expect(
            engine.tokenLifetime == JobTimings.tokenLifetime
                && engine.tokenRefreshWindow == JobTimings.tokenRefreshWindow
        )
        #expect(
            engine.importResultsTTL == JobTimings.importResultsTTL
                && engine.batchResultsTTL == JobTimings.batchResultsTTL
        )
        #expect(engine.sseRetryMilliseconds == JobTimings.sseRetryMilliseconds)
    }

    /// The help's lists are the homes' lists: every documented feature and rate-limit class is
    /// named there and accepted by its flag (`scan` and `bookshelf_scan` were missing from the
    /// hand-written lists), and the defaults it states are the configuration's.
    @Test func flagHelpListsEveryFeatureAndClassItsFlagsAccept() throws {
        let help = ServerConfiguration.flagHelp
        let words = Set(help.split(whereSeparator: { " \n(;,".contains($0) }).map(String.init))
        for feature in CapabilityFeature.documented {
            #expect(words.contains(feature.rawValue), "\(feature) is not in the help")
            let config = try ServerConfiguration(arguments: ["--disable", feature.rawValue])
            #expect(config.disabledFeatures == [feature])
        }
        for limitClass in BudgetClass.allCases {
            #expect(words.contains(limitClass.rawValue), "\(limitClass) is not in the help")
            let config = try ServerConfiguration(arguments: ["--rate-limit", "\(limitClass.rawValue)=7/min"])
            #expect(config.rateLimits[limitClass] == .perMinute(7))
        }
        let defaults = ServerConfiguration()
        #expect(help.contains("(default \(defaults.port);"))
        #expect(help.contains("(default \(defaults.jobs.heartbeatInterval.components.seconds))"))
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(help)")
    }

    @Test func parsesEveryFlag() throws {
        let config = try ServerConfiguration(arguments: [
            "--port", "0", "--host=0.0.0.0", "--rate-limit", "semantic=10/min", "--rate-limit=global=2000/hour",
            "--rate-limit", "search=off", "--disable", "semantic_search,similar-books", "--disable=weekly",
            "--enable-fault-injection", "--inject-fault", "/v1/search=circuit-open:5000:isbndb",
            "--inject-fault", "POST /api/v2/books/enrich=fail-first:2:empty-503", "--latency", "/api/v2=150",
            "--cache-dir", "/tmp/bts-cache", "--deprecate-legacy", "--sse-heartbeat", "0.5", "--job-pacing", "20",
            "--sse-drop", "2:3",
        ])
        #expect(config.port == 0 && config.host == "0.0.0.0")
        #expect(config.rateLimits[.semantic] == .perMinute(10))
        #expect(config.rateLimits[.global] == .perHour(2000))
        #expect(config.rateLimits[.search] == nil)
        #expect(config.disabledFeatures == [.semanticSearch, .similarBooks, .weeklyRecommendations])
        #expect(config.faultInjectionEnabled)
        #expect(
            config.faultRules == [
                FaultRule(pathPrefix: "/v1/search", action: .circuitOpen(retryAfterMs: 5000, provider: "isbndb")),
                FaultRule(
                    pathPrefix: "/api/v2/books/enrich",
                    method: "POST",
                    action: .emptyBody(status: 503),
                    times: 2
                ),
                FaultRule(pathPrefix: "/api/v2", action: .latency(milliseconds: 150)),
            ]
        )
        #expect(config.cacheDirectory?.path == "/tmp/bts-cache")
        #expect(config.legacyDeprecation != nil)
        #expect(config.jobs.heartbeatInterval == .milliseconds(500))
        #expect(config.jobs.itemPacing == .milliseconds(20))
        #expect(config.jobs.sseDropFault == SSEDropFault(afterEvents: 2, maxDrops: 3))
        let engine = JobEngineConfiguration(server: config, dataDirectory: URL(fileURLWithPath: "/tmp"))
        #expect(engine.sseDropFault == SSEDropFault(afterEvents: 2, maxDrops: 3))
    }

    @Test func sseDropWithoutALimitAndOnlyWithFaultInjection() throws {
        let config = try ServerConfiguration(arguments: ["--enable-fault-injection", "--sse-drop=5"])
        #expect(config.jobs.sseDropFault == SSEDropFault(afterEvents: 5))
        #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(arguments: ["--sse-drop", "5"]) }
    }

    @Test func connectionAndJobBounds() throws {
        let defaults = ServerConfiguration()
        #expect(defaults.maxConnections == ServerConfiguration.defaultMaxConnections)
        #expect(defaults.requestHeadLimits.bodyTimeout == RequestHeadLimits.defaultBodyTimeout)
        #expect(
            JobEngineConfiguration(server: defaults, dataDirectory: URL(fileURLWithPath: "/tmp")).maxConcurrentJobs
                == JobEngineConfiguration.defaultMaxConcurrentJobs
        )
        let config = try ServerConfiguration(arguments: [
            "--max-jobs", "4", "--max-connections=64", "--body-timeout", "15",
        ])
        #expect(config.maxConnections == 64)
        #expect(config.requestHeadLimits.bodyTimeout == .seconds(15))
        #expect(
            JobEngineConfiguration(server: config, dataDirectory: URL(fileURLWithPath: "/tmp")).maxConcurrentJobs == 4
        )
        for bad in [
            ["--max-jobs", "0"], ["--max-connections", "many"], ["--body-timeout", "-1"], ["--body-timeout"],
        ] {
            #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(arguments: bad) }
        }
    }

    @Test func rateLimitsOff() throws {
        let config = try ServerConfiguration(arguments: ["--rate-limits", "off"])
        #expect(!config.rateLimitsEnabled)
        #expect(config.effectiveRateLimits.isEmpty)
    }

    @Test(arguments: [
        ["--port", "70000"], ["--port"], ["--rate-limit", "nonsense=1/min"], ["--rate-limit", "search=ten/min"],
        ["--rate-limits", "maybe"], ["--disable", "teleportation"], ["--inject-fault", "/v1=internal-error"],
        ["--enable-fault-injection", "--inject-fault", "v1=internal-error"],
        ["--enable-fault-injection", "--inject-fault", "/v1=explode"],
        ["--enable-fault-injection", "--latency", "/v1=-5"],
        ["--frobnicate"], ["--sse-drop", "2"], ["--enable-fault-injection", "--sse-drop", "0"],
        ["--enable-fault-injection", "--sse-drop", "two"], ["--enable-fault-injection", "--sse-drop", "2:x:1"],
    ])
    func rejectsBadFlagsWithAMessage(_ arguments: [String]) {
        #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(arguments: arguments) }
        do {
            _ = try ServerConfiguration(arguments: arguments)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }

    @Test func faultSpecsParse() throws {
        #expect(try FaultRule(parsing: "*=internal-error") == FaultRule(pathPrefix: "", action: .internalError))
        #expect(try FaultRule(parsing: "/x=html-502").action == .proxyHTML(status: 502))
        #expect(try FaultRule(parsing: "/x=html").action == .proxyHTML(status: 502))
        #expect(try FaultRule(parsing: "/x=empty-504").action == .emptyBody(status: 504))
        #expect(
            try FaultRule(parsing: "/x=circuit-open").action
                == .circuitOpen(retryAfterMs: 30_000, provider: "google_books")
        )
        #expect(try FaultRule(parsing: "/x=latency:40").action == .latency(milliseconds: 40))
        let first = try FaultRule(parsing: "/x=fail-first:3")
        #expect(first.times == 3 && first.action == .internalError)
    }

    @Test func rateRulesParse() {
        #expect(RateLimitRule(parsing: "10/min") == .perMinute(10))
        #expect(RateLimitRule(parsing: "3/s") == RateLimitRule(limit: 3, windowSeconds: 1))
        #expect(RateLimitRule(parsing: "20/30s") == RateLimitRule(limit: 20, windowSeconds: 30))
        #expect(RateLimitRule(parsing: "5/day") == RateLimitRule(limit: 5, windowSeconds: 86400))
        #expect(RateLimitRule(parsing: "5") == nil)
        #expect(RateLimitRule(parsing: "-1/min") == nil)
        #expect(RateLimitRule(parsing: "5/fortnight") == nil)
    }

    @Test func fuzzedFlagsNeverCrash() {
        var generator = SplitMix64(seed: 7)
        let pieces = [
            "--port", "--rate-limit", "--disable", "--inject-fault", "--latency", "--enable-fault-injection", "=", "/",
            "semantic=", "10/min", "off", "*", "circuit-open:", "fail-first:", ":", "-1", "99999999999999999999", "",
            "/v1", "html-", "empty-", "latency:", "x",
        ]
        for _ in 0..<2000 {
            let count = Int(generator.next() % 6)
            let arguments = (0..<count).map { _ in
                pieces[Int(generator.next() % UInt64(pieces.count))]
                    + pieces[Int(generator.next() % UInt64(pieces.count))]
            }
            if let config = try? ServerConfiguration(arguments: arguments) {
                #expect((0...65535).contains(config.port))
                #expect(config.faultRules.isEmpty || config.faultInjectionEnabled)
            }
        }
    }
}
