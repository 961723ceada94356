import BTSShell
import Foundation

/// How one test file ran.
package struct ScriptTestResult: Sendable, Hashable, Codable {
    /// The verdict on one file.
    package enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
        /// The script ran to its end (exit 0).
        case passed
        /// An `expect` failed (exit 4).
        case failed
        /// Any other failure: a syntax error, a command's failure, the network, an interruption,
        /// the file's time limit.
        case errored
    }

    /// The path as given or found, e.g. `tests/search.bts`.
    package var file: String
    package var outcome: Outcome
    package var exitStatus: Int32
    /// The wall-clock time the file took.
    package var seconds: Double
    /// How many `expect`s ran.
    package var expectations: Int
    package var failures: [ScriptTestFailure]
    /// What the script printed on standard output (its results, `echo`), as plain text (no ANSI),
    /// up to `CapturedText.limit` bytes and a last line `… N bytes more` when cut.
    package var standardOutput: String
    /// What the script and its pipelines wrote on standard error (its errors, notes), as
    /// `standardOutput` is kept.
    package var standardError: String

    package init(
        file: String,
        outcome: Outcome,
        exitStatus: Int32,
        seconds: Double,
        expectations: Int = 0,
        failures: [ScriptTestFailure] = [],
        standardOutput: String = "",
        standardError: String = ""
    ) {
        self.file = file
        self.outcome = outcome
        self.exitStatus = exitStatus
        self.seconds = seconds
        self.expectations = expectations
        self.failures = failures
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// A whole `bts test` run: one result per file, in the order of the files given.
package struct ScriptTestRun: Sendable, Hashable, Codable {
    package var results: [ScriptTestResult]
    /// When the run started.
    package var started: Date
    /// The wall-clock time of the whole run.
    package var seconds: Double

    package init(results: [ScriptTestResult], started: Date, seconds: Double) {
        self.results = results
        self.started = started
        self.seconds = seconds
    }

    /// The number of files run.
    package var tests: Int { results.count }
    package var passed: Int { count(.passed) }
    package var failed: Int { count(.failed) }
    package var errored: Int { count(.errored) }
    /// True when no file failed or errored (an empty run succeeds).
    package var succeeded: Bool { failed + errored == 0 }

    private func count(_ outcome: ScriptTestResult.Outcome) -> Int {
        results.reduce(0) { $0 + ($1.outcome == outcome ? 1 : 0) }
    }
}

extension ScriptTestRun {
    /// `value` with exactly `places` decimals and a `.` decimal point whatever the locale
    /// (0 for a value that is not finite).
    static func decimal(_ value: Double, places: Int) -> String {
        let places = max(0, min(places, 9))
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = value.isFinite ? min((abs(value) * scale).rounded(), 9e15) : 0
        let units = Int64(scaled)
        let divisor = Int64(scale)
        let sign = value < 0 && units > 0 ? "-" : ""
        guard places > 0 else { return sign + String(units) }
        let fraction = String(units % divisor)
        return sign + String(units / divisor) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// `date` in ISO 8601, UTC, to the second: `2025-01-31T09:30:00Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
