import Foundation

extension ScriptTestRun {
    /// The run as JSON, pretty printed with sorted keys and a final newline. Its shape:
    /// ```
    /// {
    ///   "results" : [                       one per file, in the order of the files given
    ///     {
    ///       "exitStatus" : 4,
    ///       "expectations" : 3,             how many `expect`s ran
    ///       "failures" : [
    ///         {
    ///           "code" : "EXPECT_FAILED",
    ///           "column" : 1,               null when unknown
    ///           "details" : [ "left:  12", "right: 100" ],
    ///           "file" : "tests/b.bts",
    ///           "line" : 3,                 null when unknown
    ///           "message" : "expectation failed: ${_.totalCount} > 100"
    ///         }
    ///       ],
    ///       "file" : "tests/b.bts",
    ///       "outcome" : "failed",           passed, failed or errored
    ///       "seconds" : 0.203,
    ///       "stderr" : "…"
    ///     }
    ///   ],
    ///   "summary" : {
    ///     "errored" : 0, "failed" : 1, "passed" : 0, "tests" : 1,
    ///     "seconds" : 0.203,
    ///     "started" : "2025-01-31T09:30:00Z"   ISO 8601, UTC
    ///   }
    /// }
    /// ```
    /// Seconds are rounded to milliseconds.
    public func json() -> String {
        let summary: [String: Any] = [
            "tests": tests, "passed": passed, "failed": failed, "errored": errored,
            "seconds": Self.milliseconds(seconds), "started": Self.timestamp(started),
        ]
        let document: [String: Any] = ["summary": summary, "results": results.map(Self.jsonObject)]
        let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: options) else {
            // Only strings, integers, finite numbers and null go in, which always serialise.
            return "{}\n"
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func jsonObject(_ result: ScriptTestResult) -> [String: Any] {
        [
            "file": result.file,
            "outcome": result.outcome.rawValue,
            "exitStatus": Int(result.exitStatus),
            "seconds": milliseconds(result.seconds),
            "expectations": result.expectations,
            "failures": result.failures.map { failure -> [String: Any] in
                [
                    "file": failure.file,
                    "line": failure.line.map { $0 as Any } ?? NSNull(),
                    "column": failure.column.map { $0 as Any } ?? NSNull(),
                    "message": failure.message,
                    "details": failure.details,
                    "code": failure.code,
                ]
            },
            "stderr": result.standardError,
        ]
    }

    /// `seconds` rounded to milliseconds; 0 when not finite (JSON has no NaN or infinity).
    private static func milliseconds(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1000).rounded() / 1000 : 0
    }
}
