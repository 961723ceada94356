import Foundation

/// The one place where the tests' safety deadlines are scaled.
///
/// A deadline in a test only bounds a hang (a program that never prints, a server that never
/// answers): nothing asserts a duration. Every such limit is written for a quiet 2-core machine with
/// a wide margin and passes through `TestTime.scaled(_:)`, so a slower or busier machine runs the
/// same suite with `BTS_TEST_TIME_SCALE` set (a positive number; `scripts/test --under-load` sets 3).
package enum TestTime {
    /// `BTS_TEST_TIME_SCALE`, or 1 when unset or not a positive number.
    package static let scale: Double = parse(ProcessInfo.processInfo.environment["BTS_TEST_TIME_SCALE"])

    /// The factor that `text` names, or 1.
    package static func parse(_ text: String?) -> Double {
        guard let text, let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0
        else { return 1 }
        return min(value, 1000)
    }

    /// A safety deadline of `limit` on this machine.
    package static func scaled(_ limit: Duration) -> Duration { limit * scale }

    /// A safety deadline in whole seconds (a child's `--timeout N`, a socket's `SO_RCVTIMEO`).
    package static func seconds(_ seconds: Int) -> Int { Int((Double(seconds) * scale).rounded(.up)) }

    /// A test's whole time limit in minutes (`.timeLimit(.minutes(TestTime.minutes(10)))`).
    package static func minutes(_ minutes: Int) -> Int { Int((Double(minutes) * scale).rounded(.up)) }
}

extension Duration {
    /// This duration as a safety deadline on this machine (`TestTime.scaled`).
    package var scaled: Duration { TestTime.scaled(self) }
}
