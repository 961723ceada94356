import BTSLanguage
import Foundation
import Testing

/// The table of the check's rules in docs/usage.md is generated from ``Diagnostic/Rule``: each case's
/// name and its doc comment, read from its source file; this test keeps it true.
/// `BTS_UPDATE_README=1 swift test --filter RuleReferenceTests` rewrites it.
@Suite struct RuleReferenceTests {
    static let begin =
        "<!-- rules:begin (generated from Diagnostic.Rule; see Tests/BTSLanguageTests/RuleReferenceTests.swift) -->"
    static let end = "<!-- rules:end -->"

    static var repositoryURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Each case's raw value and its one-line doc comment, in the order of the source.
    static func documentedRules() throws -> [(name: String, summary: String)] {
        let source = try String(
            contentsOf: repositoryURL.appendingPathComponent("Sources/BTSLanguage/Diagnostic+Rule.swift"),
            encoding: .utf8
        )
        var rules: [(name: String, summary: String)] = []
        var comment: [String] = []
        for line in source.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("/// ") {
                comment.append(String(line.dropFirst(4)))
            } else if line.hasPrefix("case "), let match = line.firstMatch(of: /case \w+ = "([a-z-]+)"/) {
                rules.append((String(match.1), comment.joined(separator: " ")))
                comment = []
            } else {
                comment = []
            }
        }
        return rules
    }

    /// The Markdown table: one row a rule.
    static func table() throws -> String {
        let rows = try documentedRules().map { rule in
            "| `\(rule.name)` | \(rule.summary.replacingOccurrences(of: "|", with: "\\|")) |"
        }
        return (["| Rule | The mistake |", "|---|---|"] + rows).joined(separator: "\n")
    }

    @Test func everyRuleHasAOneLineDocCommentInItsSource() throws {
        let documented = try Self.documentedRules()
        #expect(documented.map(\.name) == Diagnostic.Rule.allCases.map(\.rawValue))
        for rule in documented {
            #expect(!rule.summary.isEmpty && rule.summary.hasSuffix("."), "\(rule.name): \(rule.summary)")
        }
        #expect(Diagnostic.Rule.allCases.count >= 15 && Diagnostic.Rule.allCases.count <= 30)
    }

    @Test func theUsageDocListsTheRules() throws {
        let url = Self.repositoryURL.appendingPathComponent("docs/usage.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let start = text.range(of: Self.begin), let stop = text.range(of: Self.end),
            start.upperBound <= stop.lowerBound
        else {
            Issue.record("docs/usage.md lacks the rule table markers")
            return
        }
        let expected = "\n" + (try Self.table()) + "\n"
        let current = String(text[start.upperBound..<stop.lowerBound])
        if current != expected, ProcessInfo.processInfo.environment["BTS_UPDATE_README"] == "1" {
            let updated = text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: expected)
            try updated.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            current == expected,
            "docs/usage.md is stale: run BTS_UPDATE_README=1 swift test --filter RuleReferenceTests"
        )
    }
}
