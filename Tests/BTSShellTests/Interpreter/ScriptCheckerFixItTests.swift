import BTSLanguage
import BTSShell
import BooksTrackContract
import Foundation
import TestSupport
import Testing

/// What the check's diagnostics carry for the reports and editors: every "did you mean" its fix,
/// which writes the text suggested; every diagnostic the code the reports name it with.
@Suite("script checker: fixes and codes")
struct ScriptCheckerFixItTests {

    /// Scripts with the parser's and the check's other mistakes (syntax, blocks, values, conditions).
    static let broken = [
        "echo \"open", "echo 'open", "echo ${_.items[0}", "echo ${_.items[x]}", "echo ${", "echo \\",
        "search title dune > out.json | sort", "search title dune --limit 1 --limit 2", "for x in a b\n  echo $x",
        "end", "break", "if", "while", "elif $x", "else", "if $x; else; else; end", "for $y in c; end",
        "for x; end", "search", "library add", "expect", "if $n==6; echo six; end", "if not; echo x; end",
        "set 1x 2", "search title dune --limit x", "search title dune --limit 0", "--limit 3",
        String(repeating: "for x in a\n", count: 101),
    ]

    /// The text quoted after "did you mean" (`'search'`, `the setting 'timing'`).
    static func guess(in message: String) -> String? {
        guard let mark = message.range(of: "did you mean ") else { return nil }
        let rest = message[mark.upperBound...]
        guard let open = rest.firstIndex(of: "'") else { return nil }
        let after = rest[rest.index(after: open)...]
        return after.firstIndex(of: "'").map { String(after[..<$0]) }
    }

    @Test func everyDidYouMeanCarriesAFixThatWritesTheWordSuggested() throws {
        let checker = ScriptChecker()
        for (script, expected) in RuleCorpus.misspelt {
            let suggesting = checker.diagnostics(of: script, name: "t.bts").filter { Self.guess(in: $0.message) != nil }
            try #require(suggesting.count == 1, "one 'did you mean' in \(script): \(suggesting)")
            let diagnostic = suggesting[0]
            #expect(Self.guess(in: diagnostic.message) == expected, "\(diagnostic)")
            let fix = try #require(diagnostic.fixIt, "a fix for \(diagnostic)")
            let bytes = Array(script.utf8)
            try #require(0 <= fix.range.offset && fix.range.end <= bytes.count)
            let fixed = String(
                decoding: bytes[..<fix.range.offset] + Array(fix.replacement.utf8) + bytes[fix.range.end...],
                as: UTF8.self
            )
            #expect(fix.replacement == expected, "\(script) → \(fixed)")
            let again = checker.diagnostics(of: fixed, name: "t.bts")
            #expect(!again.contains { $0.message == diagnostic.message }, "\(fixed): \(again)")
        }
    }

    @Test func aConditionsMisspeltOperatorIsFixedInPlace() throws {
        let script = "if ${_.title} contians dune\n  echo yes\nend"
        let diagnostic = try #require(ScriptChecker().diagnostics(of: script, name: "t.bts").first)
        let fix = try #require(diagnostic.fixIt)
        #expect(SourceFile(name: "t.bts", text: script).slice(fix.range) == "contians")
        #expect(fix.replacement == "contains")
        #expect(diagnostic.range.offset <= fix.range.offset && fix.range.end <= diagnostic.range.end)
    }

    @Test func everyDiagnosticOfTheParserAndTheCheckHasTheCodeTheReportsName() throws {
        let corpus = ReadmeReferenceTests.repositoryURL.appendingPathComponent("Fuzz/language/corpus")
        let seeds = try FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "bts" }
            .map { try String(contentsOf: $0, encoding: .utf8) }
        #expect(seeds.count >= 10)
        var seen = 0
        for script in Self.broken + RuleCorpus.misspelt.map(\.script) + seeds {
            let found = ScriptChecker().diagnostics(of: script, name: "t.bts")
            let source = SourceFile(name: "t.bts", text: script)
            let findings = CheckFinding.findings(found, in: source)
            #expect(findings.count == found.count)
            // The code of `bts check --format json` is the one a run of the script reports (and
            // `bts test` with it): the error its diagnostics make.
            let reported = ShellError(diagnostics: found).code.rawValue
            for (diagnostic, finding) in zip(found, findings) {
                #expect(!finding.code.isEmpty && finding.code == reported, "\(diagnostic)")
                #expect(CheckFinding.code(of: diagnostic) == reported)
                #expect(finding.rule == diagnostic.rule.rawValue, "\(diagnostic)")
            }
            seen += found.count
        }
        for script in Self.broken {
            #expect(!ScriptChecker().diagnostics(of: script, name: "t.bts").isEmpty, "\(script) is a mistake")
        }
        #expect(seen > Self.broken.count)
        #expect(ShellError(diagnostics: []).code.rawValue == "USAGE")
    }
}
