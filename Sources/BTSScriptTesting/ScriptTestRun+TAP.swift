import BTSShell
import BooksTrackContract
import Foundation

extension ScriptTestRun {
    /// The run as TAP version 13: the plan `1..N`, then `ok N - PATH` or `not ok N - PATH` per file.
    ///
    /// A failed or errored file is followed by a YAML block indented two spaces (`---` … `...`) with
    /// the first failure's `message`, `severity` (`fail` for a failed `expect`, `error` otherwise),
    /// `at` (`file:line:col`), `code` and `data` (its detail lines: a mapping such as
    /// `"left": "12"` when each is a distinct `word: value`, else a list), then `exit`, `expects` and
    /// `duration_ms`; when the file reported more than one failure, `failures` lists them all with
    /// the same four keys. Every string is a JSON string literal (valid YAML) with non-printable
    /// characters escaped. In a description, `\` and `#` are escaped and line breaks become spaces.
    /// What a file wrote follows its test line (and block) as comment lines, `# stdout:` and
    /// `# stderr:` each with the stream's lines under it as `#   LINE` (controls neutralised by
    /// `TerminalText`, as `prove` prints comments). A last comment line gives the totals.
    package func tap() -> String {
        var lines = ["TAP version 13", results.isEmpty ? "1..0 # SKIP no test files" : "1..\(results.count)"]
        for (index, result) in results.enumerated() {
            let status = result.outcome == .passed ? "ok" : "not ok"
            lines.append("\(status) \(index + 1) - \(Self.tapDescription(result.file))")
            if result.outcome != .passed { lines += Self.tapDiagnostics(result) }
            lines += Self.tapOutput(result)
        }
        lines.append("# passed \(passed), failed \(failed), errored \(errored) (\(Self.decimal(seconds, places: 3)) s)")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func tapOutput(_ result: ScriptTestResult) -> [String] {
        var lines: [String] = []
        for (name, text) in [("stdout", result.standardOutput), ("stderr", result.standardError)] {
            let captured = outputLines(text)
            guard !captured.isEmpty else { continue }
            lines.append("# \(name):")
            lines += captured.map { "#   " + $0 }
        }
        return lines
    }

    private static func tapDiagnostics(_ result: ScriptTestResult) -> [String] {
        let first =
            result.failures.first
            ?? ScriptTestFailure(
                file: result.file,
                message: result.outcome == .failed ? "expectation failed" : "exited with status \(result.exitStatus)",
                code: result.outcome == .failed ? "EXPECT_FAILED" : "ERROR"
            )
        var lines = ["  ---"]
        lines += tapFields(first, indent: "  ", severity: result.outcome == .failed ? "fail" : "error")
        lines.append("  exit: \(result.exitStatus)")
        lines.append("  expects: \(result.expectations)")
        let milliseconds = result.seconds.isFinite ? max(0, (result.seconds * 1000).rounded()) : 0
        lines.append("  duration_ms: \(decimal(milliseconds, places: 0))")
        if result.failures.count > 1 {
            lines.append("  failures:")
            for failure in result.failures {
                var fields = tapFields(failure, indent: "      ", severity: nil)
                fields[0] = "    - " + fields[0].dropFirst(6)
                lines += fields
            }
        }
        lines.append("  ...")
        return lines
    }

    /// `message`, `severity` (when given), `at`, `code` and `data`, one per line after `indent`.
    private static func tapFields(_ failure: ScriptTestFailure, indent: String, severity: String?) -> [String] {
        var lines = [indent + "message: " + yamlString(failure.message)]
        if let severity { lines.append(indent + "severity: " + severity) }
        lines.append(indent + "at: " + yamlString(failure.location))
        lines.append(indent + "code: " + yamlString(failure.code))
        if !failure.details.isEmpty {
            lines.append(indent + "data:")
            if let pairs = keyedDetails(failure.details) {
                lines += pairs.map { indent + "  " + yamlString($0.key) + ": " + yamlString($0.value) }
            } else {
                lines += failure.details.map { indent + "  - " + yamlString($0, asListItem: true) }
            }
        }
        return lines
    }

    /// `left:  12`, `right: 100` → (`left`, `12`), (`right`, `100`) when every line is a distinct
    /// `word: value`; nil otherwise.
    private static func keyedDetails(_ details: [String]) -> [(key: String, value: String)]? {
        var pairs: [(key: String, value: String)] = []
        for detail in details {
            guard let colon = detail.firstIndex(of: ":") else { return nil }
            let key = String(detail[..<colon])
            let isWord =
                !key.isEmpty
                && key.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                        || $0 == "-"
                }
            guard isWord, !pairs.contains(where: { $0.key == key }) else { return nil }
            let value = detail[detail.index(after: colon)...].drop { $0 == " " }
            pairs.append((key, String(value)))
        }
        return pairs
    }

    /// A test description: `\` and `#` escaped (an unescaped `# ` starts a directive), line breaks
    /// and other controls replaced by spaces.
    private static func tapDescription(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "#": output += "\\#"
            default:
                let value = scalar.value
                let isControl = value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
                output.unicodeScalars.append(isControl ? " " : scalar)
            }
        }
        return output
    }

    /// `text` as a JSON string literal (``JSONString``), which is also a YAML double-quoted scalar:
    /// quotes, backslashes and everything YAML does not print (C0, DEL, C1, U+2028/U+2029,
    /// U+FEFF, U+FFFE/U+FFFF) escaped.
    ///
    /// `asListItem` also writes as `\u003a` a colon in the first word or right after it: Perl's
    /// TAP::Parser (behind `prove`) reads an item such as `- "left: 1"` as a mapping and stops there.
    /// (The escapes hold neither a space nor a colon, so the literal's words are the text's.)
    private static func yamlString(_ text: String, asListItem: Bool = false) -> String {
        let literal = JSONString.literal(text, yamlEscaping)
        guard asListItem, literal.unicodeScalars.contains(":") else { return literal }
        var output = ""
        // The literal's first word (its quote included) and the spaces after it, while a colon there
        // could still end a mapping key.
        var inFirstWord = true
        var afterFirstWord = false
        for scalar in literal.unicodeScalars {
            if scalar == " " {
                afterFirstWord = inFirstWord || afterFirstWord
                inFirstWord = false
            } else if scalar != ":" {
                inFirstWord = inFirstWord && !afterFirstWord
                afterFirstWord = false
            }
            if scalar == ":", inFirstWord || afterFirstWord {
                output += "\\u003a"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// What YAML does not print, escaped beyond JSON's own (backspace and form feed as `\u0008`, `\u000c`).
    private static let yamlEscaping = JSONString.Escaping(shortBackspaceAndFormFeed: false) { scalar in
        let value = scalar.value
        return (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || value == 0xFEFF || value == 0xFFFE || value == 0xFFFF
    }
}
