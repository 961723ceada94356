import BooksTrackContract
import Foundation

extension ScriptTestRun {
    /// The run as JSON (`JSONValue.prettyJSON`: sorted keys), with a final newline. Its shape:
    /// ```
    /// {
    ///   "results": [                       one per file, in the order of the files given
    ///     {
    ///       "exitStatus": 4,
    ///       "expectations": 3,             how many `expect`s ran
    ///       "failures": [
    ///         {
    ///           "code": "EXPECT_FAILED",
    ///           "column": 1,               null when unknown
    ///           "details": [ "left:  12", "right: 100" ],
    ///           "file": "tests/b.bts",
    ///           "line": 3,                 null when unknown
    ///           "message": "expectation failed: ${_.totalCount} > 100"
    ///         }
    ///       ],
    ///       "file": "tests/b.bts",
    ///       "outcome": "failed",           passed, failed or errored
    ///       "seconds": 0.203,
    ///       "stderr": "…",                 what the file wrote on stderr (its pipelines' too)
    ///       "stdout": "…"                  and on stdout, each up to 64 KiB, then "… N bytes more"
    ///     }
    ///   ],
    ///   "summary": {
    ///     "errored": 0, "failed": 1, "passed": 0, "tests": 1,
    ///     "seconds": 0.203,
    ///     "started": "2025-01-31T09:30:00Z"   ISO 8601, UTC
    ///   }
    /// }
    /// ```
    /// A file stopped by its time limit or a signal is `errored`, its first failure
    /// `timed out after 30s` (`TIMED_OUT`) or `interrupted by SIGTERM` (`INTERRUPTED`).
    /// Seconds are rounded to milliseconds.
    public func json() -> String {
        let summary = JSONValue.record([
            ("tests", tests.json), ("passed", passed.json), ("failed", failed.json), ("errored", errored.json),
            ("seconds", .number(Self.milliseconds(seconds))), ("started", .string(Self.timestamp(started))),
        ])
        return JSONValue.record([("summary", summary), ("results", .array(results.map(Self.jsonValue)))]).prettyJSON + "\n"
    }

    private static func jsonValue(_ result: ScriptTestResult) -> JSONValue {
        .record([
            ("file", .string(result.file)),
            ("outcome", .string(result.outcome.rawValue)),
            ("exitStatus", Int(result.exitStatus).json),
            ("seconds", .number(milliseconds(result.seconds))),
            ("expectations", result.expectations.json),
            ("failures", .array(result.failures.map { failure in
                .object([
                    "file": .string(failure.file), "line": failure.line.json ?? .null, "column": failure.column.json ?? .null,
                    "message": .string(failure.message), "details": failure.details.json, "code": .string(failure.code),
                ])
            })),
            ("stdout", .string(result.standardOutput)),
            ("stderr", .string(result.standardError)),
        ])
    }

    /// `seconds` rounded to milliseconds; 0 when not finite (JSON has no NaN or infinity).
    private static func milliseconds(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1000).rounded() / 1000 : 0
    }
}
