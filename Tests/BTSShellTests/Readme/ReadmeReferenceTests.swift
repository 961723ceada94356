import BTSShell
import Foundation
import Testing

/// The command reference (`docs/commands.md`) is generated from the registry; this test keeps it true.
/// `BTS_UPDATE_README=1 swift test --filter ReadmeReferenceTests` rewrites it.
@Suite(.onWorkThreads) struct ReadmeReferenceTests {
    static let begin = "<!-- commands:begin (generated from the registry; see Tests/BTSShellTests/Readme) -->"
    static let end = "<!-- commands:end -->"

    static var repositoryURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static var readmeURL: URL { repositoryURL.appendingPathComponent("README.md") }
    static var referenceURL: URL { repositoryURL.appendingPathComponent("docs/commands.md") }

    @Test func readmeCommandReferenceMatchesTheRegistry() throws {
        let text = try String(contentsOf: Self.referenceURL, encoding: .utf8)
        guard let start = text.range(of: Self.begin), let stop = text.range(of: Self.end),
            start.upperBound <= stop.lowerBound
        else {
            Issue.record("docs/commands.md lacks the command reference markers")
            return
        }
        let expected = "\n" + CommandReference.markdown() + "\n"
        let current = String(text[start.upperBound..<stop.lowerBound])
        if current != expected, ProcessInfo.processInfo.environment["BTS_UPDATE_README"] == "1" {
            let updated = text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: expected)
            try updated.write(to: Self.referenceURL, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            current == expected,
            "docs/commands.md is stale: run BTS_UPDATE_README=1 swift test --filter ReadmeReferenceTests"
        )
    }
}
