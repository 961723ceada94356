import BooksTrackContract
import Foundation
import NIOCore

/// A bad `bts serve` flag; `message` says what is wrong and how to write it.
package struct ServerConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

extension ServerConfiguration {
    /// Help text for the flags `init(arguments:)` understands. The lists and defaults are read from
    /// their homes (`BudgetClass`, `CapabilityFeature.documented`, `KnownBackend`, `JobTimings`).
    package static let flagHelp = """
        --host ADDRESS                  interface to bind (default \(ServerConfiguration().host))
        --port N, -p N                  port to bind (default \(KnownBackend.localPort); 0 = any free port)
        --cache-dir PATH                catalog cache directory
        --rate-limit CLASS=N/UNIT       set one limit, e.g. semantic=10/min, global=2000/hour, search=off
        \(helpLines("(classes: " + BudgetClass.allCases.map(\.rawValue).joined(separator: " ")
            + "; units: s, min, hour, day, or Ns such as 30s)"))
        --rate-limits on|off            turn every limit on or off (default on)
        --no-rate-limits                the same as --rate-limits off
        --disable FEATURE[,FEATURE]     switch a feature off:
        \(helpLines(CapabilityFeature.documented.map(\.rawValue).joined(separator: " ")))
        --enable-fault-injection        allow the fault flags below (off by default; logs a warning)
        --inject-fault ROUTE=KIND       ROUTE is a path prefix ('*' = all), optionally 'METHOD /path';
                                        KIND: circuit-open[:MS[:PROVIDER]] internal-error html-502
                                        empty-503 empty-504 latency:MS fail-first:N[:KIND]
        --latency ROUTE=MS              add MS milliseconds of latency to matching routes
        --deprecate-legacy[=SUNSET]     send Deprecation/Sunset/Link headers on /v1 routes
        --sse-heartbeat SECONDS         SSE heartbeat interval for job streams (default \(JobTimings.seconds(JobTimings.heartbeat)))
        --job-pacing MS                 delay between job items (default 0)
        --max-jobs N                    unfinished jobs of all clients together (default \(JobEngineConfiguration.defaultMaxConcurrentJobs)); one
                                        more is answered 503
        --max-connections N             connections served at once (default \(ServerConfiguration.defaultMaxConnections), at most half of
                                        ulimit -n); up to \(ServerConfiguration.defaultListenBacklog) more wait in the listen queue and are
                                        served in turn as connections close
        --body-timeout SECONDS          time a request body may take to arrive (default \(RequestHeadLimits.defaultBodyTimeout.nanoseconds / 1_000_000_000)); a
                                        slower one is answered 408 and its connection closed
        --sse-drop AFTER[:MAX]          cut every job SSE stream after AFTER events, at most MAX
                                        times per stream (fault injection)
        --dialect contract|production   answer as documented (default) or as the deployed backend's
                                        source does, quirks included (docs/production-dialect.md)
        --no-legacy-routes              answer every /v1 and /api/v2 route with the route-gone 404
                                        of production 3.x (only /v3 and /health are served)
        """

    /// `text` as lines of the help's second column: words wrapped at 100 characters, every line
    /// indented to the column.
    static func helpLines(_ text: String) -> String {
        let indent = String(repeating: " ", count: 32)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent.count + line.count + 1 + word.count > 100 {
                lines.append(indent + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(indent + line) }
        return lines.joined(separator: "\n")
    }

    /// Builds a configuration from `bts serve` flags (both `--flag value` and `--flag=value`),
    /// starting from `base`. Fault flags require `--enable-fault-injection`.
    package init(
        arguments: [String],
        base: ServerConfiguration = ServerConfiguration()
    ) throws(ServerConfigurationError) {
        var config = base
        var pendingFaults: [FaultRule] = []
        var needsFaultInjection: [String] = []
        var index = 0

        func value(for flag: String, inline: String?) throws(ServerConfigurationError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw ServerConfigurationError("\(flag) needs a value") }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            var flag = argument
            var inline: String?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                flag = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            }
            switch flag {
            case "--host":
                config.host = try value(for: flag, inline: inline)
            case "--port", "-p":
                let text = try value(for: flag, inline: inline)
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw ServerConfigurationError("--port must be a number from 0 to 65535, got '\(text)'")
                }
                config.port = port
            case "--cache-dir":
                config.cacheDirectory = URL(fileURLWithPath: try value(for: flag, inline: inline), isDirectory: true)
            case "--rate-limit":
                let (limitClass, rule) = try Self.parseRateLimit(try value(for: flag, inline: inline))
                config.rateLimits[limitClass] = rule
            case "--rate-limits":
                switch try value(for: flag, inline: inline).lowercased() {
                case "off", "false", "no", "0": config.rateLimitsEnabled = false
                case "on", "true", "yes", "1": config.rateLimitsEnabled = true
                case let other: throw ServerConfigurationError("--rate-limits takes on or off, got '\(other)'")
                }
            case "--no-rate-limits":
                config.rateLimitsEnabled = false
            case "--disable":
                for name in try value(for: flag, inline: inline).split(separator: ",") {
                    guard let feature = ServerFeature(name: String(name).trimmingCharacters(in: .whitespaces)) else {
                        let known = CapabilityFeature.documented.map(\.rawValue).joined(separator: ", ")
                        throw ServerConfigurationError("unknown feature '\(name)' (features: \(known))")
                    }
                    config.disabledFeatures.insert(feature)
                }
            case "--enable-fault-injection":
                config.faultInjectionEnabled = true
            case "--inject-fault":
                let spec = try value(for: flag, inline: inline)
                do {
                    pendingFaults.append(try FaultRule(parsing: spec))
                } catch {
                    throw ServerConfigurationError("--inject-fault: \(error.message)")
                }
            case "--latency":
                let spec = try value(for: flag, inline: inline)
                do {
                    pendingFaults.append(try FaultRule(parsingLatency: spec))
                } catch {
                    throw ServerConfigurationError("--latency: \(error.message)")
                }
            case "--deprecate-legacy":
                config.legacyDeprecation = LegacyDeprecation(
                    deprecation: "true",
                    sunset: inline ?? "Wed, 01 Jul 2026 00:00:00 GMT",
                    link: "</api/v2/search>; rel=\"successor-version\""
                )
            case "--sse-heartbeat":
                let text = try value(for: flag, inline: inline)
                guard let seconds = Double(text), seconds > 0 else {
                    throw ServerConfigurationError(
                        "--sse-heartbeat must be a positive number of seconds, got '\(text)'"
                    )
                }
                config.jobs.heartbeatInterval = .milliseconds(Int(seconds * 1000))
            case "--job-pacing":
                let text = try value(for: flag, inline: inline)
                guard let ms = Int(text), ms >= 0 else {
                    throw ServerConfigurationError("--job-pacing must be milliseconds (0 or more), got '\(text)'")
                }
                config.jobs.itemPacing = .milliseconds(ms)
            case "--sse-drop":
                let text = try value(for: flag, inline: inline)
                let parts = text.split(separator: ":", omittingEmptySubsequences: false)
                guard (1...2).contains(parts.count), let after = Int(parts[0]), after >= 1,
                    parts.count == 1 || Int(parts[1]).map({ $0 >= 0 }) == true
                else {
                    throw ServerConfigurationError(
                        "--sse-drop takes AFTER[:MAX] (events before each cut, cuts per stream), e.g. 2:3; got '\(text)'"
                    )
                }
                config.jobs.sseDropFault = SSEDropFault(
                    afterEvents: after,
                    maxDrops: parts.count == 2 ? Int(parts[1]) : nil
                )
                needsFaultInjection.append("--sse-drop")
            case "--max-jobs":
                config.jobs.maxConcurrentJobs = try Self.positive(flag, try value(for: flag, inline: inline))
            case "--max-connections":
                config.maxConnections = try Self.positive(flag, try value(for: flag, inline: inline))
            case "--body-timeout":
                let seconds = try Self.positive(flag, try value(for: flag, inline: inline))
                config.requestHeadLimits.bodyTimeout = .seconds(Int64(seconds))
            case "--no-legacy-routes":
                config.servesLegacyRoutes = false
            case "--dialect":
                let text = try value(for: flag, inline: inline)
                guard let dialect = ServerDialect(name: text) else {
                    throw ServerConfigurationError("--dialect takes contract or production, got '\(text)'")
                }
                config.dialect = dialect
            default:
                throw ServerConfigurationError("unknown server option '\(argument)'")
            }
            index += 1
        }
        if !needsFaultInjection.isEmpty, !config.faultInjectionEnabled {
            throw ServerConfigurationError("\(needsFaultInjection[0]) needs --enable-fault-injection")
        }
        if !pendingFaults.isEmpty {
            guard config.faultInjectionEnabled else {
                throw ServerConfigurationError("--inject-fault and --latency need --enable-fault-injection")
            }
            config.faultRules.append(contentsOf: pendingFaults)
        }
        self = config
    }

    /// A whole number of 1 or more (at most 1,000,000).
    static func positive(_ flag: String, _ text: String) throws(ServerConfigurationError) -> Int {
        guard let number = Int(text), (1...1_000_000).contains(number) else {
            throw ServerConfigurationError("\(flag) must be a whole number from 1 to 1000000, got '\(text)'")
        }
        return number
    }

    /// Parses `CLASS=N/UNIT` or `CLASS=off` (an unlimited class is removed from the rules).
    static func parseRateLimit(_ text: String) throws(ServerConfigurationError) -> (BudgetClass, RateLimitRule?) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let limitClass = BudgetClass(rawValue: parts[0].lowercased()) else {
            let known = BudgetClass.allCases.map(\.rawValue).joined(separator: ", ")
            throw ServerConfigurationError(
                "--rate-limit must look like CLASS=N/UNIT with CLASS one of \(known), got '\(text)'"
            )
        }
        if ["off", "none", "unlimited"].contains(parts[1].lowercased()) { return (limitClass, nil) }
        guard let rule = RateLimitRule(parsing: parts[1]) else {
            throw ServerConfigurationError("--rate-limit \(parts[0]): '\(parts[1])' is not N/UNIT such as 10/min")
        }
        return (limitClass, rule)
    }
}
