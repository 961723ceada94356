import BTSShell
import Foundation
import TestSupport
import Testing

@testable import BTSScriptTesting

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The reports of `bts test`: JUnit XML, TAP 13, JSON and the lines on standard error.
@Suite("bts test reports")
struct ScriptTestReportTests {
    /// Text a server could send: markup, quotes, a NUL, an escape sequence, a bell.
    static let hostile = "<b>&\"'</b>\u{0}\u{1B}[31mred\u{7}]]>"

    /// Three files: one passes, one fails two `expect`s, one has a syntax error (no line).
    static let run = ScriptTestRun(
        results: [
            ScriptTestResult(file: "tests/a.bts", outcome: .passed, exitStatus: 0, seconds: 0.4149, expectations: 2),
            ScriptTestResult(
                file: "tests/b.bts",
                outcome: .failed,
                exitStatus: 4,
                seconds: 0.2034,
                expectations: 3,
                failures: [
                    ScriptTestFailure(
                        file: "tests/b.bts",
                        line: 3,
                        column: 1,
                        message: "expectation failed: ${_.totalCount} > 100",
                        details: ["left:  12", "right: 100"],
                        code: "EXPECT_FAILED"
                    ),
                    ScriptTestFailure(
                        file: "tests/b.bts",
                        line: 5,
                        column: 1,
                        message: "expectation failed: ${_.title} == \"Dune\"",
                        details: ["left:  \"\(hostile)\"", "right: \"Dune\""],
                        code: "EXPECT_FAILED"
                    ),
                ],
                standardError: "tests/b.bts:3:1: error: expectation failed\n"
            ),
            ScriptTestResult(
                file: "tests/c.bts",
                outcome: .errored,
                exitStatus: 2,
                seconds: 0.0071,
                failures: [ScriptTestFailure(file: "tests/c.bts", message: "syntax error: \(hostile)", code: "USAGE")],
                standardError: "server said \(hostile)\n"
            ),
        ],
        started: Date(timeIntervalSince1970: 1_738_315_800),
        seconds: 1.2
    )

    static let allPassed = ScriptTestRun(
        results: [run.results[0], run.results[0]],
        started: run.started,
        seconds: 0.83
    )

    // MARK: The model

    @Test func countsAndVerdict() throws {
        let run = Self.run
        #expect((run.tests, run.passed, run.failed, run.errored) == (3, 1, 1, 1))
        #expect(!run.succeeded)
        #expect(Self.allPassed.succeeded)
        #expect(ScriptTestRun(results: [], started: run.started, seconds: 0).succeeded)
        #expect(run.results[1].failures[0].location == "tests/b.bts:3:1")
        #expect(run.results[2].failures[0].location == "tests/c.bts")
        let copy = try JSONDecoder().decode(ScriptTestRun.self, from: JSONEncoder().encode(run))
        #expect(copy == run)
    }

    @Test func numbersHaveAPointAndFixedDecimals() {
        #expect(ScriptTestRun.decimal(0.4149, places: 3) == "0.415")
        #expect(ScriptTestRun.decimal(12345.6789, places: 2) == "12345.68")
        #expect(ScriptTestRun.decimal(0.999, places: 2) == "1.00")
        #expect(ScriptTestRun.decimal(3, places: 0) == "3")
        #expect(ScriptTestRun.decimal(.nan, places: 3) == "0.000")
        #expect(ScriptTestRun.timestamp(Self.run.started) == "2025-01-31T09:30:00Z")
    }

    // MARK: JUnit XML

    @Test func junitIsWellFormedWithOneTestCasePerFile() throws {
        let xml = Self.run.junitXML()
        #expect(
            xml.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"bts test\" tests=\"3\" failures=\"1\" errors=\"1\" time=\"1.200\">"
            )
        )
        let elements = try XMLElements(xml)
        #expect(elements.count("testsuite") == 1)
        #expect(elements.count("testcase") == 3)
        #expect(elements.count("failure") == 1)
        #expect(elements.count("error") == 1)
        #expect(elements.count("system-err") == 2)
        let suite = try #require(elements.first("testsuite"))
        #expect(suite.attributes["timestamp"] == "2025-01-31T09:30:00Z")
        #expect(suite.attributes["skipped"] == "0")
        let cases = elements.all("testcase")
        #expect(cases.map { $0.attributes["name"] } == ["tests/a.bts", "tests/b.bts", "tests/c.bts"])
        #expect(cases.map { $0.attributes["classname"] } == ["tests.a", "tests.b", "tests.c"])
        #expect(cases.map { $0.attributes["time"] } == ["0.415", "0.203", "0.007"])
        let failure = try #require(elements.first("failure"))
        #expect(failure.attributes["message"] == "expectation failed: ${_.totalCount} > 100")
        #expect(failure.attributes["type"] == "EXPECT_FAILED")
        #expect(
            failure.text.hasPrefix(
                "tests/b.bts:3:1: expectation failed: ${_.totalCount} > 100\n  left:  12\n  right: 100\ntests/b.bts:5:1:"
            )
        )
    }

    @Test func junitEscapesHostileTextAndDropsWhatXMLForbids() throws {
        let xml = Self.run.junitXML()
        #expect(!xml.contains("\u{0}") && !xml.contains("\u{1B}") && !xml.contains("\u{7}"))
        #expect(xml.contains("&lt;b&gt;&amp;&quot;&apos;&lt;/b&gt;"))
        #expect(!xml.contains("<b>"))
        let elements = try XMLElements(xml)
        let error = try #require(elements.first("error"))
        // What a reader gets back: the text as sent, less the characters XML cannot carry.
        #expect(error.attributes["message"] == "syntax error: <b>&\"'</b>[31mred]]>")
        #expect(error.attributes["type"] == "USAGE")
        #expect(error.text == "tests/c.bts: syntax error: <b>&\"'</b>[31mred]]>")
        #expect(elements.all("system-err").last?.text == "server said <b>&\"'</b>[31mred]]>\n")
        // A line break in an attribute survives as a character reference.
        let broken = ScriptTestRun(
            results: [
                ScriptTestResult(
                    file: "x.bts",
                    outcome: .errored,
                    exitStatus: 1,
                    seconds: 0,
                    failures: [ScriptTestFailure(file: "x.bts", message: "a\nb\tc", code: "E")]
                )
            ],
            started: Self.run.started,
            seconds: 0
        )
        #expect(try XMLElements(broken.junitXML()).first("error")?.attributes["message"] == "a\nb\tc")
    }

    @Test func junitClassnames() {
        #expect(ScriptTestRun.junitClassname("tests/search.bts") == "tests.search")
        #expect(ScriptTestRun.junitClassname("./a/b/c.bts") == "a.b.c")
        #expect(ScriptTestRun.junitClassname("/tmp/x.bts") == "tmp.x")
        #expect(ScriptTestRun.junitClassname("smoke") == "smoke")
        #expect(ScriptTestRun.junitClassname(".bts") == "bts")
    }

    @Test func junitOfAPassingRunHasNoFailure() throws {
        let elements = try XMLElements(Self.allPassed.junitXML())
        #expect(elements.count("testcase") == 2)
        #expect(elements.count("failure") + elements.count("error") + elements.count("system-err") == 0)
    }

    // MARK: TAP

    @Test func tapHasAPlanAndOneLinePerFile() {
        let lines = Self.run.tap().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(3)) == ["TAP version 13", "1..3", "ok 1 - tests/a.bts"])
        #expect(lines.contains("not ok 2 - tests/b.bts"))
        #expect(lines.contains("not ok 3 - tests/c.bts"))
        #expect(lines.contains("  severity: fail") && lines.contains("  severity: error"))
        #expect(lines.contains("  at: \"tests/b.bts:3:1\""))
        #expect(lines.contains("  exit: 4"))
        #expect(lines.contains("    \"left\": \"12\""))
        #expect(lines.filter { $0 == "  ---" }.count == 2)
        #expect(lines.filter { $0 == "  ..." }.count == 2)
        #expect(lines.last == "")  // ends with a newline
        #expect(!Self.run.tap().contains("\u{0}") && !Self.run.tap().contains("\u{1B}"))
        #expect(Self.run.tap().contains(#"\u0000\u001b[31mred\u0007"#))
    }

    @Test func tapDescriptionsCannotStartADirective() {
        let run = ScriptTestRun(
            results: [ScriptTestResult(file: "t/a # TODO \\ b\nc.bts", outcome: .failed, exitStatus: 4, seconds: 0)],
            started: Self.run.started,
            seconds: 0
        )
        #expect(run.tap().contains("\nnot ok 1 - t/a \\# TODO \\\\ b c.bts\n"))
        #expect(
            ScriptTestRun(results: [], started: Self.run.started, seconds: 0).tap().hasPrefix(
                "TAP version 13\n1..0 # SKIP"
            )
        )
    }

    /// Perl's `prove` reads the report: the failures counted, the YAML blocks parsed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prove"), "no /usr/bin/prove"))
    func proveReadsTheReport() async throws {
        let directory = try TempDir("tap")
        defer { directory.cleanup() }
        let listed = ScriptTestFailure(
            file: "d.bts",
            message: "m",
            details: ["a: 1", "a: 2", "x : y", "https://example.org"],
            code: "X"
        )
        var failing = Self.run
        failing.results.append(
            ScriptTestResult(
                file: "tests/d # TODO.bts",
                outcome: .errored,
                exitStatus: 1,
                seconds: 0,
                failures: [listed]
            )
        )

        let failed = try await Self.prove(failing.tap(), in: directory.url, name: "failing.tap")
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stdout.contains("Failed 3/4 subtests"), "\(failed)")
        #expect(failed.stdout.contains("Result: FAIL"), "\(failed)")
        #expect(!failed.stdout.contains("Parse errors") && !failed.stderr.contains("YAMLish"), "\(failed)")

        let passed = try await Self.prove(Self.allPassed.tap(), in: directory.url, name: "passing.tap")
        #expect(passed.status == 0, "\(passed)")
        #expect(passed.stdout.contains("Result: PASS"), "\(passed)")
    }

    private static func prove(_ tap: String, in directory: URL, name: String) async throws -> ProcessOutcome {
        let file = directory.appendingPathComponent(name)
        try Data(tap.utf8).write(to: file)
        return try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/prove"),
            ["--verbose", "--exec", "/bin/cat", file.path],
            environment: ProcessInfo.processInfo.environment,
            directory: directory,
            timeout: .seconds(60)
        )
    }

    // MARK: JSON

    /// The report's exact text: the schema's keys sorted, two-space indents, an unknown line and
    /// column as `null`, controls escaped, seconds rounded to milliseconds, a final newline.
    @Test func jsonIsTheSchemaWithSortedKeys() {
        let failure = ScriptTestFailure(file: "t/a.bts", message: "m\u{1}", details: ["d"], code: "USAGE")
        let result = ScriptTestResult(
            file: "t/a.bts",
            outcome: .errored,
            exitStatus: 2,
            seconds: 0.2504,
            failures: [failure],
            standardError: "e\u{7F}\n"
        )
        let run = ScriptTestRun(results: [result], started: Self.run.started, seconds: 0.2504)
        #expect(
            run.json() == #"""
                {
                  "results": [
                    {
                      "exitStatus": 2,
                      "expectations": 0,
                      "failures": [
                        {
                          "code": "USAGE",
                          "column": null,
                          "details": [
                            "d"
                          ],
                          "file": "t/a.bts",
                          "line": null,
                          "message": "m\u0001"
                        }
                      ],
                      "file": "t/a.bts",
                      "outcome": "errored",
                      "seconds": 0.25,
                      "stderr": "e\u007f\n",
                      "stdout": ""
                    }
                  ],
                  "summary": {
                    "errored": 1,
                    "failed": 0,
                    "passed": 0,
                    "seconds": 0.25,
                    "started": "2025-01-31T09:30:00Z",
                    "tests": 1
                  }
                }

                """#
        )
    }

    @Test func jsonRoundTrips() throws {
        let text = Self.run.json()
        #expect(text.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["tests"] as? Int == 3)
        #expect(summary["passed"] as? Int == 1)
        #expect(summary["failed"] as? Int == 1)
        #expect(summary["errored"] as? Int == 1)
        #expect(summary["seconds"] as? Double == 1.2)
        #expect(summary["started"] as? String == "2025-01-31T09:30:00Z")
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.map { $0["file"] as? String } == ["tests/a.bts", "tests/b.bts", "tests/c.bts"])
        #expect(results.map { $0["outcome"] as? String } == ["passed", "failed", "errored"])
        #expect(results.map { $0["exitStatus"] as? Int } == [0, 4, 2])
        #expect(results[0]["seconds"] as? Double == 0.415)
        #expect(results[0]["expectations"] as? Int == 2)
        let failures = try #require(results[1]["failures"] as? [[String: Any]])
        #expect(failures.count == 2)
        #expect(failures[0]["line"] as? Int == 3 && failures[0]["column"] as? Int == 1)
        #expect(failures[0]["details"] as? [String] == ["left:  12", "right: 100"])
        #expect(failures[0]["code"] as? String == "EXPECT_FAILED")
        let error = try #require((results[2]["failures"] as? [[String: Any]])?.first)
        #expect(error["line"] is NSNull && error["column"] is NSNull)
        #expect(error["message"] as? String == "syntax error: \(Self.hostile)")
        #expect(results[2]["stderr"] as? String == "server said \(Self.hostile)\n")
    }

    // MARK: Summary on standard error

    @Test func summaryLinesWithoutColour() {
        let lines = Self.run.results.map { ScriptTestRun.line(for: $0, colored: false) }
        #expect(lines[0] == "tests/a.bts: Success (2 expects, 0.41 s)")
        #expect(
            lines[1] == """
                tests/b.bts: Failure (2 of 3 expects failed, 0.20 s)
                  tests/b.bts:3:1: expectation failed: ${_.totalCount} > 100
                    left:  12
                    right: 100
                  tests/b.bts:5:1: expectation failed: ${_.title} == "Dune"
                    left:  "<b>&"'</b>␀␛[31mred␇]]>"
                    right: "Dune"
                """
        )
        #expect(
            lines[2] == "tests/c.bts: Error (exit 2, 0.01 s)\n  tests/c.bts: syntax error: <b>&\"'</b>␀␛[31mred␇]]>"
        )
        #expect(
            Self.run.totals(colored: false) == "Executed files: 3 · passed 1 (33.3%) · failed 1 · errored 1 · 1.20 s"
        )
        #expect(
            ScriptTestRun(results: [], started: Self.run.started, seconds: 0).totals(colored: false)
                == "Executed files: 0 · 0.00 s"
        )
        for text in lines + [Self.run.totals(colored: false)] {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text)")
        }
    }

    @Test func summaryLinesWithColour() {
        let pass = ScriptTestRun.line(for: Self.run.results[0], colored: true)
        #expect(pass == "tests/a.bts: \u{1B}[32mSuccess\u{1B}[0m (2 expects, 0.41 s)")
        let error = ScriptTestRun.line(for: Self.run.results[2], colored: true)
        #expect(
            error.hasPrefix(
                "tests/c.bts: \u{1B}[31mError\u{1B}[0m (exit 2, 0.01 s)\n  \u{1B}[1mtests/c.bts:\u{1B}[0m syntax error:"
            )
        )
        // The only escapes are the styles: the server's ESC is shown, not obeyed.
        for text in [
            error, ScriptTestRun.line(for: Self.run.results[1], colored: true), Self.run.totals(colored: true),
        ] {
            var rest = text
            for style in ["\u{1B}[32m", "\u{1B}[31m", "\u{1B}[1m", "\u{1B}[0m"] {
                rest = rest.replacingOccurrences(of: style, with: "")
            }
            #expect(!rest.contains("\u{1B}"), "\(text)")
        }
        #expect(Self.run.totals(colored: true).contains("\u{1B}[31mfailed 1\u{1B}[0m"))
        #expect(Self.allPassed.totals(colored: true).contains("failed 0 ·"))
    }
}

/// The elements of an XML document as Foundation's `XMLParser` reads them (which fails on a
/// document that is not well-formed).
private struct XMLElements {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
    }

    var elements: [Element] = []

    init(_ xml: String) throws {
        let reader = Reader()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = reader
        guard parser.parse() else {
            throw ParseFailure(description: "not well-formed: \(parser.parserError.map { "\($0)" } ?? "?")\n\(xml)")
        }
        elements = reader.finished
    }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }
    func first(_ name: String) -> Element? { all(name).first }
    func count(_ name: String) -> Int { all(name).count }

    struct ParseFailure: Error, CustomStringConvertible { var description: String }

    private final class Reader: NSObject, XMLParserDelegate {
        var open: [Element] = []
        var finished: [Element] = []

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            open.append(Element(name: elementName, attributes: attributes, text: ""))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !open.isEmpty { open[open.count - 1].text += string }
        }

        func parser(
            _ parser: XMLParser,
            didEndElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?
        ) {
            if let element = open.popLast() { finished.append(element) }
        }
    }
}
