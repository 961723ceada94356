import BTSShell
import Foundation

extension ScriptTestRun {
    /// The run as JUnit XML, for CI test viewers: one `<testsuite name="bts test">` in
    /// `<testsuites>`, one `<testcase>` per file.
    ///
    /// A test case's `name` and `file` are the file's path and its `classname` is that path without
    /// `.bts`, with `/` as `.` (`tests/search.bts` → `tests.search`), so that viewers that group by
    /// class show the directories as packages. A failed file holds a `<failure>`, an errored one an
    /// `<error>`, whose `message` and `type` are the first failure's message and code and whose text
    /// lists every failure as `file:line:col: message` with its detail lines under it (a file
    /// stopped by its time limit or a signal: an `<error>` whose message is `timed out after 30s`
    /// or `interrupted by SIGTERM`); what a file wrote to standard output is its `<system-out>`,
    /// to standard error its `<system-err>`. Times are seconds with 3 decimals.
    package func junitXML() -> String {
        let time = Self.decimal(seconds, places: 3)
        let counts = #"tests="\#(tests)" failures="\#(failed)" errors="\#(errored)""#
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="bts test" \#(counts) time="\#(time)">"# + "\n"
        xml +=
            #"  <testsuite name="bts test" \#(counts) skipped="0" time="\#(time)""#
            + #" timestamp="\#(Self.timestamp(started))">"# + "\n"
        for result in results { xml += Self.junitTestCase(result) }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// `tests/search.bts` → `tests.search`; `bts` when nothing is left.
    static func junitClassname(_ path: String) -> String {
        var name = Substring(path)
        if name.hasSuffix(".bts") { name = name.dropLast(4) }
        let parts = name.split(separator: "/").filter { $0 != "." && $0 != ".." }
        return parts.isEmpty ? "bts" : parts.joined(separator: ".")
    }

    private static func junitTestCase(_ result: ScriptTestResult) -> String {
        let attributes = [
            ("name", result.file), ("classname", junitClassname(result.file)), ("file", result.file),
            ("assertions", String(result.expectations)), ("time", decimal(result.seconds, places: 3)),
        ].map { #"\#($0.0)="\#(xmlEscaped($0.1, inAttribute: true))""# }.joined(separator: " ")
        var body = ""
        if let element = problemElement(result) {
            let first = result.failures.first
            let message = first?.message ?? fallbackMessage(result)
            let type = first?.code ?? (result.outcome == .failed ? "EXPECT_FAILED" : "ERROR")
            let text = result.failures.map(problemText).joined(separator: "\n")
            body +=
                #"      <\#(element) message="\#(xmlEscaped(message, inAttribute: true))""#
                + #" type="\#(xmlEscaped(type, inAttribute: true))">\#(xmlEscaped(text, inAttribute: false))</\#(element)>"#
                + "\n"
        }
        if !result.standardOutput.isEmpty {
            body += "      <system-out>\(xmlEscaped(result.standardOutput, inAttribute: false))</system-out>\n"
        }
        if !result.standardError.isEmpty {
            body += "      <system-err>\(xmlEscaped(result.standardError, inAttribute: false))</system-err>\n"
        }
        if body.isEmpty { return "    <testcase \(attributes)/>\n" }
        return "    <testcase \(attributes)>\n" + body + "    </testcase>\n"
    }

    private static func problemElement(_ result: ScriptTestResult) -> String? {
        switch result.outcome {
        case .passed: nil
        case .failed: "failure"
        case .errored: "error"
        }
    }

    private static func fallbackMessage(_ result: ScriptTestResult) -> String {
        result.outcome == .failed ? "expectation failed" : "exited with status \(result.exitStatus)"
    }

    /// `file:line:col: message`, then each detail line indented two spaces.
    private static func problemText(_ failure: ScriptTestFailure) -> String {
        ([failure.location + ": " + failure.message] + failure.details.map { "  " + $0 }).joined(separator: "\n")
    }

    /// `text` with the five XML specials escaped and the characters XML 1.0 forbids dropped (controls
    /// other than tab, LF and CR; U+FFFE and U+FFFF). In an attribute, tab, LF and CR become
    /// character references so that attribute normalisation keeps them; in text, CR does.
    private static func xmlEscaped(_ text: String, inAttribute: Bool) -> String {
        var output = ""
        output.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\r": output += "&#13;"
            case "\n": output += inAttribute ? "&#10;" : "\n"
            case "\t": output += inAttribute ? "&#9;" : "\t"
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
