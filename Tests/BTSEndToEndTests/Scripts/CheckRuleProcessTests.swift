import BTSLanguage
import Foundation
import TestSupport
import Testing

/// Every rule of the check, made by a script of its own (``RuleCorpus``), as `bts check --format json`
/// reports it through the real binary, beside the unchanged code; and as `bts test`'s JSON report
/// gives a failure that is a diagnostic.
@Suite(
    "bts check: a rule on every finding",
    .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct CheckRuleProcessTests {
    typealias Workspace = ScriptTestProcessTests.Workspace

    @Test func eachRuleComesFromItsScriptInTheCheckJSON() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let rules = Set(Diagnostic.Rule.allCases.map(\.rawValue))
        // The corpus names every rule the check reports, and nothing else.
        #expect(Set(RuleCorpus.scripts.keys) == rules.subtracting(RuleCorpus.notFromTheCheck))
        #expect(RuleCorpus.notFromTheCheck.isSubset(of: rules))
        for (rule, script) in RuleCorpus.scripts { try workspace.write("rules/\(rule).bts", script) }
        let json = try await workspace.bts(["check", "--format", "json", "rules"])
        #expect(json.status == 2 && json.stderr.isEmpty, "\(json)")
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]],
            "\(json)"
        )
        #expect(list.allSatisfy { $0["code"] as? String == "USAGE" && $0["severity"] as? String == "error" })
        var found: [String: [String]] = [:]
        for finding in list {
            let file = try #require(finding["file"] as? String)
            let rule = try #require(finding["rule"] as? String, "\(finding)")
            #expect(rules.contains(rule), "\(finding)")
            found[URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent, default: []].append(rule)
        }
        for rule in RuleCorpus.scripts.keys.sorted() {
            #expect(found[rule]?.contains(rule) == true, "rules/\(rule).bts: \(found[rule] ?? [])")
        }
    }

    @Test func aTestReportGivesTheRuleOfAFailureThatIsADiagnostic() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write("t/typo.bts", RuleCorpus.scripts["unknown-command"] ?? "")
        try workspace.write("t/expect.bts", "expect 1 == 2\n")
        let run = try await workspace.bts(["test", "t", "--report-json", "out/report.json"])
        #expect(run.status != 0, "\(run)")
        let report =
            try JSONSerialization.jsonObject(with: Data(try workspace.read("out/report.json").utf8)) as? [String: Any]
        let results = report?["results"] as? [[String: Any]] ?? []
        let failures = results.flatMap { $0["failures"] as? [[String: Any]] ?? [] }
        let typo = failures.first { ($0["file"] as? String)?.hasSuffix("typo.bts") == true }
        #expect(typo?["code"] as? String == "USAGE" && typo?["rule"] as? String == "unknown-command", "\(failures)")
        // A failure that is not a diagnostic of the text has no rule.
        let expectation = failures.first { ($0["file"] as? String)?.hasSuffix("expect.bts") == true }
        #expect(expectation?["code"] as? String == "EXPECT_FAILED", "\(failures)")
        #expect(expectation.map { $0["rule"] == nil } == true, "\(failures)")
    }
}
