import Foundation
import Testing

/// The recorded production bodies of the contract tests (one copy, shared:
/// Tests/BooksTrackContractTests/Fixtures).
package enum Fixtures {
    package static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("BooksTrackContractTests/Fixtures")

    /// The fixture's text; a missing fixture is a recorded test failure, never a silent `{}`.
    package static func text(_ name: String) -> String {
        do {
            return try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        } catch {
            Issue.record("missing fixture \(name): \(error)")
            return ""
        }
    }
}
