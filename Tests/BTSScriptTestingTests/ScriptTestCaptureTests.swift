import BTSShell
import Foundation
import TestSupport
import Testing

@testable import BTSScriptTesting

#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The pieces of `bts test` that need no file run: captured output and its bound, the stop
/// reasons and their words, `--filter`, a stopped file's verdict, and what the reports and the
/// summary make of them.
@Suite("bts test capture, filter and stops")
struct ScriptTestCaptureTests {
    // MARK: Captured output

    @Test func capturedTextKeepsUpToItsBoundAndCountsTheRest() {
        var text = CapturedText(bound: 10)
        text.append("hello\n")
        text.append("world")
        #expect(text.text == "hello\nworl\n… 1 byte more\n", "as much as fits, the rest counted")
        var small = CapturedText(bound: 10)
        small.append("abc\n")
        #expect(small.text == "abc\n" && small.dropped == 0)
        small.append("defghijkl")
        #expect(small.kept == "abc\ndefghi" && small.dropped == 3)
        small.append("more\n")
        #expect(small.dropped == 8)
        #expect(small.text == "abc\ndefghi\n… 8 bytes more\n")
        #expect(CapturedText.limit == 64 * 1024)
    }

    @Test func capturedTextIsCutAtACharactersBoundary() {
        var text = CapturedText(bound: 5)
        text.append("ab€€")  // 2 + 3 + 3 bytes: the second euro sign does not fit
        #expect(text.kept == "ab€")
        #expect(text.dropped == 3)
        #expect(text.text == "ab€\n… 3 bytes more\n")
    }

    // MARK: Stops

    @Test func durationsAreSpokenAsTheOptionTakesThem() {
        #expect(ScriptTestStop.spoken(.milliseconds(500)) == "500ms")
        #expect(ScriptTestStop.spoken(.seconds(1)) == "1s")
        #expect(ScriptTestStop.spoken(.seconds(30)) == "30s")
        #expect(ScriptTestStop.spoken(.milliseconds(1500)) == "1.5s")
        #expect(ScriptTestStop.spoken(.milliseconds(1250)) == "1.25s")
        #expect(ScriptTestStop.spoken(.seconds(90)) == "90s")
        #expect(ScriptTestStop.spoken(.seconds(120)) == "2m")
        #expect(ScriptTestStop.spoken(.seconds(3600)) == "1h")
        for text in ["500ms", "1s", "1.5s", "2m", "1h"] {
            let parsed = ValueType.parseDuration(text)
            #expect(parsed.map(ScriptTestStop.spoken) == text, "\(text) read back")
        }
    }

    @Test func stopsSayWhy() {
        #expect(ScriptTestStop.timedOut(limit: .seconds(30)).message == "timed out after 30s")
        #expect(ScriptTestStop.timedOut(limit: .seconds(30)).code == "TIMED_OUT")
        #expect(ScriptTestStop.interrupted(signal: SIGTERM).message == "interrupted by SIGTERM")
        #expect(ScriptTestStop.interrupted(signal: SIGINT).message == "interrupted by SIGINT")
        #expect(ScriptTestStop.interrupted(signal: SIGHUP).message == "interrupted by SIGHUP")
        #expect(ScriptTestStop.interrupted(signal: SIGTERM).code == "INTERRUPTED")
    }

    @Test func aStoppedFileIsAnErrorWhoseFirstFailureIsTheStop() {
        let reported = ScriptTestFailure(
            file: "t/a.bts",
            line: 2,
            column: 1,
            message: "interrupted",
            code: "INTERRUPTED"
        )
        let finished = ScriptTestFileRun.Finished(status: 130, failures: [reported], expectations: 1)
        let stopped = ScriptTestRunner.result(
            file: "t/a.bts",
            outcome: .finished(finished),
            stop: .timedOut(limit: .seconds(1)),
            seconds: 1.01,
            standardOutput: "started\n",
            standardError: ""
        )
        #expect(stopped.outcome == .errored && stopped.exitStatus == 130 && stopped.expectations == 1)
        #expect(stopped.failures.map(\.message) == ["timed out after 1s", "interrupted"])
        #expect(stopped.failures.first?.code == "TIMED_OUT")
        #expect(stopped.standardOutput == "started\n")
        // Still running after the grace: the verdict without the session's word.
        let left = ScriptTestRunner.result(
            file: "t/a.bts",
            outcome: .leftBehind,
            stop: .interrupted(signal: SIGTERM),
            seconds: 3,
            standardOutput: "",
            standardError: ""
        )
        #expect(left.outcome == .errored && left.exitStatus == 130)
        #expect(left.failures.map(\.message) == ["interrupted by SIGTERM"])
        // Not stopped: the exit status decides, as ever.
        let passed = ScriptTestRunner.result(
            file: "t/b.bts",
            outcome: .finished(.init(status: 0, failures: [], expectations: 2)),
            stop: nil,
            seconds: 0.1,
            standardOutput: "",
            standardError: ""
        )
        #expect(passed.outcome == .passed && passed.failures.isEmpty)
    }

    // MARK: --filter

    @Test func aFilterIsAGlobOverTheWholePathWhoseStarCrossesSlashes() {
        let files = ["tests/search.bts", "tests/sub/search_more.bts", "tests/library.bts", "./smoke/a.bts"]
        #expect(ScriptTestFilter(["*search*"]).select(files) == ["tests/search.bts", "tests/sub/search_more.bts"])
        #expect(
            ScriptTestFilter(["tests/*.bts"]).select(files) == [
                "tests/search.bts", "tests/sub/search_more.bts", "tests/library.bts",
            ]
        )
        #expect(ScriptTestFilter(["tests/?ibrary.bts"]).select(files) == ["tests/library.bts"])
        #expect(ScriptTestFilter(["smoke/*", "*library*"]).select(files) == ["tests/library.bts", "./smoke/a.bts"])
        #expect(ScriptTestFilter(["./tests/search.bts"]).select(files) == ["tests/search.bts"])
        #expect(ScriptTestFilter(["search.bts"]).select(files).isEmpty, "the whole path, not the name")
        #expect(ScriptTestFilter(["*SEARCH*"]).select(files).isEmpty, "case matters")
        #expect(ScriptTestFilter([]).select(files) == files)
        #expect(ScriptTestFilter(["*x*"]).nothingMatches(of: 4) == "no test file matches --filter '*x*' (of 4 found)")
        #expect(
            ScriptTestFilter(["a", "b"]).nothingMatches(of: 1)
                == "no test file matches any of --filter 'a' or 'b' (of 1 found)"
        )
    }

    // MARK: Reports and the summary

    /// A passing file that printed, one stopped by its time limit, one whose output was cut.
    static let run = ScriptTestRun(
        results: [
            ScriptTestResult(
                file: "t/echo.bts",
                outcome: .passed,
                exitStatus: 0,
                seconds: 0.01,
                standardOutput: "hello <you>\n\u{1B}[31mred\n",
                standardError: "pipe said hi\n"
            ),
            ScriptTestRunner.result(
                file: "t/hang.bts",
                outcome: .finished(.init(status: 130, failures: [], expectations: 0)),
                stop: .timedOut(limit: .seconds(1)),
                seconds: 1.002,
                standardOutput: "started\n",
                standardError: "interrupted\n"
            ),
            ScriptTestResult(
                file: "t/loud.bts",
                outcome: .failed,
                exitStatus: 4,
                seconds: 0.2,
                standardOutput: (1...30).map { "line \($0)" }.joined(separator: "\n") + "\n"
            ),
        ],
        started: Date(timeIntervalSince1970: 1_738_315_800),
        seconds: 1.3
    )

    @Test func junitHasEachFilesOutputAndTheStopAsAnError() throws {
        let xml = Self.run.junitXML()
        #expect(!xml.contains("\u{1B}"))
        let document = try XMLDocument(data: Data(xml.utf8))
        let cases = try document.nodes(forXPath: "//testcase") as? [XMLElement] ?? []
        #expect(cases.count == 3)
        let out = cases.map { $0.elements(forName: "system-out").first?.stringValue }
        #expect(out[0] == "hello <you>\n[31mred\n")
        #expect(out[1] == "started\n")
        #expect(cases[0].elements(forName: "system-err").first?.stringValue == "pipe said hi\n")
        let error = try #require(cases[1].elements(forName: "error").first)
        #expect(error.attribute(forName: "message")?.stringValue == "timed out after 1s")
        #expect(error.attribute(forName: "type")?.stringValue == "TIMED_OUT")
        #expect(error.stringValue == "t/hang.bts: timed out after 1s")
    }

    @Test func tapHasEachFilesOutputAsCommentsAndTheStopInItsBlock() throws {
        let lines = Self.run.tap().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let echo = try #require(lines.firstIndex(of: "ok 1 - t/echo.bts"))
        #expect(
            Array(lines[(echo + 1)...(echo + 5)])
                == ["# stdout:", "#   hello <you>", "#   ␛[31mred", "# stderr:", "#   pipe said hi"]
        )
        #expect(lines.contains("not ok 2 - t/hang.bts"))
        #expect(lines.contains("  message: \"timed out after 1s\""))
        #expect(lines.contains("  code: \"TIMED_OUT\""))
        #expect(lines.contains("#   started"))
        #expect(!Self.run.tap().contains("\u{1B}"))
    }

    @Test func jsonHasBothStreams() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Self.run.json().utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results[0]["stdout"] as? String == "hello <you>\n\u{1B}[31mred\n")
        #expect(results[0]["stderr"] as? String == "pipe said hi\n")
        let failure = try #require((results[1]["failures"] as? [[String: Any]])?.first)
        #expect(failure["message"] as? String == "timed out after 1s" && failure["code"] as? String == "TIMED_OUT")
        #expect(results[1]["outcome"] as? String == "errored")
    }

    @Test func theSummaryShowsAFailingFilesOutputBoundedAndSanitised() throws {
        #expect(
            ScriptTestRun.capturedOutput(for: Self.run.results[0], colored: false) == nil,
            "a passing file's output is not shown"
        )
        let hang = try #require(ScriptTestRun.capturedOutput(for: Self.run.results[1], colored: false))
        #expect(hang == "  captured stdout:\n    started\n  captured stderr:\n    interrupted")
        let loud = try #require(ScriptTestRun.capturedOutput(for: Self.run.results[2], colored: false))
        let lines = loud.split(separator: "\n").map(String.init)
        #expect(lines.first == "  captured stdout (last 20 of 30 lines):")
        #expect(lines.count == 21 && lines[1] == "    line 11" && lines.last == "    line 30")
        var hostile = Self.run.results[2]
        hostile.standardOutput = "\u{1B}]0;owned\u{7}" + String(repeating: "x", count: 400) + "\n"
        let shown = try #require(ScriptTestRun.capturedOutput(for: hostile, colored: false))
        #expect(!shown.contains("\u{1B}") && !shown.contains("\u{7}"))
        #expect(shown.hasSuffix("…") && shown.count < 400)
        #expect(
            ScriptTestRun.line(for: Self.run.results[1], colored: false)
                == "t/hang.bts: Error (exit 130, 1.00 s)\n  t/hang.bts: timed out after 1s"
        )
    }
}
