import BTSShell

/// The JSON report of a run (`bts test --report-json FILE`): its schema as a type, written by
/// ``ScriptTestRun/json()`` with sorted keys, two-space indents and a final newline.
///
/// ```
/// {
///   "results": [ … ],        one ``FileResult`` per file, in the order of the files given
///   "summary": { … }         the ``Summary``
/// }
/// ```
/// A file stopped by its time limit or a signal is `errored`, its first failure
/// `timed out after 30s` (`TIMED_OUT`) or `interrupted by SIGTERM` (`INTERRUPTED`). Seconds are
/// rounded to milliseconds.
struct ScriptTestJSONReport: Encodable, Sendable, Hashable {
    /// The run's totals: `{"errored": 0, "failed": 1, "passed": 0, "seconds": 0.203,
    /// "started": "2025-01-31T09:30:00Z", "tests": 1}`.
    struct Summary: Encodable, Sendable, Hashable {
        /// How many files ran, then how many passed, failed and errored.
        var tests: Int
        var passed: Int
        var failed: Int
        var errored: Int
        /// The run's wall-clock time.
        var seconds: Double
        /// When the run started: ISO 8601, UTC, to the second.
        var started: String
    }

    /// One file's result.
    struct FileResult: Encodable, Sendable, Hashable {
        /// The path as given or found, e.g. `tests/b.bts`.
        var file: String
        /// `passed`, `failed` or `errored`.
        var outcome: ScriptTestResult.Outcome
        var exitStatus: Int32
        var seconds: Double
        /// How many `expect`s ran.
        var expectations: Int
        var failures: [Failure]
        /// What the file wrote on stdout, and on stderr (its pipelines' too), each up to 64 KiB,
        /// then `… N bytes more`.
        var stdout: String
        var stderr: String
    }

    /// One failure: `{"code": "EXPECT_FAILED", "column": 1, "details": ["left:  12", "right: 100"],
    /// "file": "tests/b.bts", "line": 3, "message": "expectation failed: ${_.totalCount} > 100"}`.
    struct Failure: Encodable, Sendable, Hashable {
        var file: String
        /// The line and column: `null` when unknown (a syntax error of the whole file).
        var line: Int?
        var column: Int?
        var message: String
        var details: [String]
        var code: String
        /// The check's rule (``Diagnostic/Rule``, e.g. `unknown-command`) of a failure that is a
        /// diagnostic of the script's text; the key is left out otherwise.
        var rule: String?

        enum CodingKeys: String, CodingKey {
            case file, line, column, message, details, code, rule
        }

        /// Every key written, an unknown line or column as `null`; `rule` only when there is one.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(message, forKey: .message)
            try container.encode(details, forKey: .details)
            try container.encode(code, forKey: .code)
            try container.encodeIfPresent(rule, forKey: .rule)
        }
    }

    var summary: Summary
    var results: [FileResult]
}

extension ScriptTestJSONReport {
    /// The report of `run`.
    init(_ run: ScriptTestRun) {
        summary = Summary(
            tests: run.tests,
            passed: run.passed,
            failed: run.failed,
            errored: run.errored,
            seconds: Self.milliseconds(run.seconds),
            started: ScriptTestRun.timestamp(run.started)
        )
        results = run.results.map { result in
            FileResult(
                file: result.file,
                outcome: result.outcome,
                exitStatus: result.exitStatus,
                seconds: Self.milliseconds(result.seconds),
                expectations: result.expectations,
                failures: result.failures.map { failure in
                    Failure(
                        file: failure.file,
                        line: failure.line,
                        column: failure.column,
                        message: failure.message,
                        details: failure.details,
                        code: failure.code,
                        rule: failure.rule
                    )
                },
                stdout: result.standardOutput,
                stderr: result.standardError
            )
        }
    }

    /// `seconds` rounded to milliseconds; 0 when not finite (JSON has no NaN or infinity).
    static func milliseconds(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1000).rounded() / 1000 : 0
    }
}
