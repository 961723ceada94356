import Foundation
import Testing
@testable import BTSShell

/// The README's command reference is generated from the registry; this test keeps it true.
/// `BTS_UPDATE_README=1 swift test --filter ReadmeReferenceTests` rewrites it.
@Suite struct ReadmeReferenceTests {
    static let begin = "<!-- commands:begin (generated from the registry; see Tests/BTSShellTests/Readme) -->"
    static let end = "<!-- commands:end -->"

    static var readmeURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
    }

    @Test func readmeCommandReferenceMatchesTheRegistry() throws {
        let text = try String(contentsOf: Self.readmeURL, encoding: .utf8)
        guard let start = text.range(of: Self.begin), let stop = text.range(of: Self.end),
              start.upperBound <= stop.lowerBound else {
            Issue.record("README.md lacks the command reference markers")
            return
        }
        let expected = "\n" + CommandReference.markdown() + "\n"
        let current = String(text[start.upperBound..<stop.lowerBound])
        if current != expected, ProcessInfo.processInfo.environment["BTS_UPDATE_README"] == "1" {
            let updated = text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: expected)
            try updated.write(to: Self.readmeURL, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == expected, "README command reference is stale: run BTS_UPDATE_README=1 swift test --filter ReadmeReferenceTests")
    }
}
