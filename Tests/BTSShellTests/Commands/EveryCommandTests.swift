import BTSTerminal
import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell

/// `every DURATION [--count N] [--fail] COMMAND…`: its words (pure), then real runs in a session.
@Suite("every")
struct EveryCommandTests {
    static func words(_ texts: [String], quoted: Set<Int> = []) -> [EveryPlan.Word] {
        texts.enumerated().map { index, text in
            EveryPlan.Word(
                literal: text,
                script: quoted.contains(index) ? "'\(text)'" : text,
                isQuoted: quoted.contains(index)
            )
        }
    }

    @Test func readsTheIntervalTheOptionsThenTheCommand() throws {
        let plan = try EveryPlan.parse(Self.words(["2s", "--count", "3", "--fail", "search", "dune", "--limit", "2"]))
            .get()
        #expect(plan.interval == .seconds(2) && plan.intervalText == "2s")
        #expect(plan.count == 3 && plan.stopsOnFailure)
        #expect(plan.commandLine == "search dune --limit 2")
        #expect(plan.header(at: "07:31:02") == "Every 2s: search dune --limit 2 — 07:31:02")
        let plain = try EveryPlan.parse(Self.words(["1m", "limits"])).get()
        #expect(plain.count == nil && !plain.stopsOnFailure && plain.interval == .seconds(60))
        #expect(try EveryPlan.parse(Self.words(["1s", "--count=2", "jobs"])).get().count == 2)
    }

    @Test func aWholeQuotedLineIsRunAsWrittenAndAQuotedWordStaysOneWord() throws {
        #expect(
            try EveryPlan.parse(Self.words(["1s", "jobs; limits"], quoted: [1])).get().commandLine == "jobs; limits"
        )
        #expect(try EveryPlan.parse(Self.words(["1s", "echo", "a b"], quoted: [2])).get().commandLine == "echo 'a b'")
        // After `--` (or the first word that is not an option of its own) the words are the command's.
        #expect(try EveryPlan.parse(Self.words(["1s", "--", "--count"])).get().commandLine == "--count")
        #expect(try EveryPlan.parse(Self.words(["1s", "echo", "--count", "3"])).get().count == nil)
    }

    @Test func refusesWhatItCannotRun() {
        let cases: [([String], EveryPlanError)] = [
            ([], .missingInterval),
            (["soon", "limits"], .badInterval("soon")),
            (["500ms", "limits"], .intervalTooShort("500ms")),
            (["1s"], .missingCommand),
            (["1s", "--count", "3"], .missingCommand),
            (["1s", "--count", "0", "limits"], .badCount),
            (["1s", "--count", "limits"], .badCount),
            (["1s", "--often", "limits"], .unknownOption("--often")),
        ]
        for (texts, error) in cases {
            #expect(EveryPlan.parse(Self.words(texts)) == .failure(error), "\(texts)")
        }
    }

    @Test func runsTheCommandCountTimesEachUnderAHeader() async throws {
        try await withShell { harness in
            #expect(await harness.run("every 1s --count 3 echo tick") == 0)
            #expect(harness.out == "tick\ntick\ntick\n")
            let headers = harness.err.split(separator: "\n").filter { $0.hasPrefix("Every 1s: echo tick — ") }
            #expect(headers.count == 3, "\(harness.err)")
        }
    }

    @Test func runsAListAndKeepsTheCommandsOwnOptions() async throws {
        try await withShell { harness in
            #expect(await harness.run("every 1s --count 2 'echo a; echo b'") == 0)
            #expect(await harness.run("every 1s --count 1 echo --count 5") == 0)
            #expect(harness.out == "a\nb\na\nb\n--count 5\n")
        }
    }

    @Test func eachRunIsItsOwnJSONDocumentInAPipe() async throws {
        try await withShell { harness in
            #expect(await harness.run("every 1s --count 2 limits") == 0)
            let lines = harness.out.split(separator: "\n")
            #expect(lines.count == 2, "\(harness.out)")
            for line in lines {
                let value = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(value?["budgets"] != nil, "\(line)")
            }
        }
    }

    @Test func clearsTheScreenBeforeEachRunOnATerminal() async throws {
        let terminal = TerminalInfo(stdoutIsTerminal: true, stderrIsTerminal: true)
        try await withShell(terminal: terminal) { harness in
            #expect(await harness.run("every 1s --count 2 echo tick") == 0)
            #expect(harness.out.components(separatedBy: EveryCommand.clearScreen).count == 3, "\(harness.out)")
            #expect(harness.out.contains(EveryCommand.clearScreen + "Every 1s: echo tick — "))
        }
    }

    @Test func aFailingRunIsReportedAndTheNextComesUnlessFail() async throws {
        try await withShell { harness in
            #expect(await harness.run("every 1s --count 2 expect 1 == 2") == 0)
            #expect(harness.err.components(separatedBy: "expectation failed").count == 3, "\(harness.err)")
        }
        try await withShell { harness in
            #expect(
                await harness.run("every 1s --count 2 --fail expect 1 == 2") == ExitStatus.expectationFailed.rawValue
            )
            #expect(harness.err.components(separatedBy: "expectation failed").count == 2, "\(harness.err)")
        }
    }

    @Test func badWordsAreUsageErrorsBeforeAnythingRuns() async throws {
        try await withShell { harness in
            #expect(await harness.run("echo first\nevery 500ms echo x") == ExitStatus.usage.rawValue)
            #expect(harness.out.isEmpty)
            #expect(
                harness.err.contains("'500ms' is too short: every waits at least 1s between runs"),
                "\(harness.err)"
            )
        }
        try await withShell { harness in
            #expect(await harness.run("every 1s --count 3 nosuch") == ExitStatus.usage.rawValue)
            #expect(harness.err.components(separatedBy: "unknown command 'nosuch'").count == 2, "\(harness.err)")
        }
    }
}
