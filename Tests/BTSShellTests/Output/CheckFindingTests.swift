import BTSShell
import Testing

/// `bts check --format github`'s workflow commands: GitHub's escapes in the message and in the
/// properties, the file's control characters made visible.
@Suite("CheckFinding: GitHub workflow commands")
struct CheckFindingTests {
    @Test func escapesAsGitHubReadsThem() {
        let finding = CheckFinding(
            file: "a,b:c.bts",
            line: 3,
            column: 7,
            severity: "error",
            code: "USAGE",
            rule: "unknown-command",
            message: "100% wrong\r\nnext \u{1B}[31m"
        )
        #expect(finding.githubCommand == "::error file=a%2Cb%3Ac.bts,line=3,col=7::100%25 wrong%0Anext ␛[31m\n")
        let unplaced = CheckFinding(
            file: "f.bts",
            line: nil,
            column: nil,
            severity: "warning",
            code: "USAGE",
            rule: nil,
            message: "a: b, c"
        )
        #expect(unplaced.githubCommand == "::warning file=f.bts::a: b, c\n")
        #expect(CheckFinding.json([]) == "[]\n")
    }
}
