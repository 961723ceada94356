import BTSLanguage
import BTSTerminalText
import BooksTrackContract
import Foundation

/// One problem `bts check` found, as data for its machine formats (`--format json|github`); the
/// text format is the shell's own rendering (``ErrorReporter``).
package struct CheckFinding: Sendable, Equatable {
    package var file: String
    /// 1-based line and display column; nil when the problem is the whole file (it cannot be read).
    package var line: Int?
    package var column: Int?
    /// `error`, `warning` or `note` (``Diagnostic/Severity``).
    package var severity: String
    /// The error code (``code(of:)``: `USAGE`, the check's errors are usage errors, exit 2).
    package var code: String
    /// Which mistake it is (``Diagnostic/Rule``, ``rule(of:)``); nil for a file that cannot be read.
    package var rule: String?
    package var message: String

    package init(
        file: String,
        line: Int?,
        column: Int?,
        severity: String,
        code: String,
        rule: String?,
        message: String
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.code = code
        self.rule = rule
        self.message = message
    }

    /// The code a diagnostic of the check is reported with: the code of the error it makes when a
    /// script is run (``ShellError/init(diagnostics:status:)``, `USAGE`), so `bts check`'s reports,
    /// `bts test`'s and `bts lsp`'s diagnostics name the same failure alike.
    package static func code(of diagnostic: Diagnostic) -> String {
        ShellError(diagnostics: [diagnostic]).code.rawValue
    }

    /// The rule a diagnostic of the check is reported with: its ``Diagnostic/Rule``'s name
    /// (`unknown-command`), the `rule` of `bts check --format json` and of `bts test`'s JSON report,
    /// and the `code` of `bts lsp`'s diagnostics.
    package static func rule(of diagnostic: Diagnostic) -> String {
        diagnostic.rule.rawValue
    }

    /// The findings of the check's `diagnostics` of `source`, in source order.
    package static func findings(_ diagnostics: [Diagnostic], in source: SourceFile) -> [CheckFinding] {
        diagnostics.sorted { $0.range.offset < $1.range.offset }.map { diagnostic in
            let place = source.location(of: diagnostic.range.offset)
            return CheckFinding(
                file: source.name,
                line: place.line,
                column: place.column,
                severity: diagnostic.severity.rawValue,
                code: code(of: diagnostic),
                rule: rule(of: diagnostic),
                message: diagnostic.message
            )
        }
    }

    /// The finding of a script that could not be read (a byte that is not UTF-8 has its place).
    package static func unreadable(_ file: String, _ failure: ScriptFile.Failure) -> CheckFinding {
        CheckFinding(
            file: file,
            line: failure.place?.line,
            column: failure.place?.column,
            severity: "error",
            code: ShellError.defaultCode(.usage).rawValue,
            rule: nil,
            message: failure.message(file)
        )
    }

    /// Whether any finding is an error (the check's status is then 2).
    package var isError: Bool { severity == Diagnostic.Severity.error.rawValue }

    /// `--format json`: one document, a list of `{file, line, column, severity, code, rule, message}`
    /// (keys sorted, null for an unknown line or column, and for the rule of a file that cannot be
    /// read), with a final newline.
    package static func json(_ findings: [CheckFinding]) -> String {
        JSONValue.array(
            findings.map { finding in
                .object([
                    "file": .string(finding.file), "line": finding.line.json ?? .null,
                    "column": finding.column.json ?? .null,
                    "severity": .string(finding.severity), "code": .string(finding.code),
                    "rule": finding.rule.map(JSONValue.string) ?? .null,
                    "message": .string(finding.message),
                ])
            }
        ).prettyJSON + "\n"
    }

    /// `--format github`: a GitHub Actions workflow command, `::error file=F,line=L,col=C::MESSAGE`
    /// (`::warning`, `::notice`), with GitHub's escapes (`%`, CR and LF in the message; also `:` and
    /// `,` in a property) and the file's control characters made visible (``TerminalText``).
    package var githubCommand: String {
        let command: String
        switch severity {
        case Diagnostic.Severity.error.rawValue: command = "error"
        case Diagnostic.Severity.warning.rawValue: command = "warning"
        default: command = "notice"
        }
        var properties = ["file=" + Self.githubProperty(file)]
        if let line { properties.append("line=\(line)") }
        if let column { properties.append("col=\(column)") }
        return "::\(command) \(properties.joined(separator: ","))::\(Self.githubData(message))\n"
    }

    static func githubData(_ text: String) -> String {
        TerminalText.sanitize(text)
            .replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    static func githubProperty(_ text: String) -> String {
        githubData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
