import Foundation
import Testing

/// Scripts built to crash or flood bts, run by the real binary: blocks nested thousands deep
/// (SIGSEGV while checking, from `-c`, a file and stdin), an alias that calls itself three times
/// and a script that sources itself three times under `--continue-on-error` (3^16 errors).
@Suite("bts binary: hostile scripts")
struct HostileScriptTests {
    static let nested =
        String(repeating: "if 1 == 1\n", count: 3_600) + "echo deep\n" + String(repeating: "end\n", count: 3_600)

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func deeplyNestedBlocksAreOneDiagnosticNotACrash() async throws {
        let outcomes = [
            ("-c", try await BinaryTests.runPrivately(["-c", Self.nested])),
            ("file", try await BinaryTests.runPrivately(["deep.bts"], files: ["deep.bts": Self.nested])),
            ("stdin", try await BinaryTests.runPrivately([], stdin: Self.nested)),
        ]
        for (how, outcome) in outcomes {
            #expect(outcome.status == 2, "\(how): \(outcome.status) \(outcome.stderr.prefix(400))")
            #expect(
                outcome.stderr.contains("blocks are nested more than 100 deep"),
                "\(how): \(outcome.stderr.prefix(400))"
            )
            #expect(!outcome.stdout.contains("deep"), "\(how)")
        }
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func anAliasCallingItselfThriceStopsAtTheFirstError() async throws {
        let outcome = try await BinaryTests.runPrivately([
            "--continue-on-error", "-c", "alias a 'a; a; a'\na\necho after",
        ])
        #expect(
            outcome.stderr.components(separatedBy: "nested too deeply").count - 1 == 1,
            "\(outcome.stderr.prefix(600))"
        )
        #expect(outcome.stdout.contains("after"), "--continue-on-error goes on with the next top-level command")
        #expect(outcome.status == 2, "\(outcome)")
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aScriptSourcingItselfThriceStopsAtTheFirstError() async throws {
        let script = "source self.bts\nsource self.bts\nsource self.bts\n"
        let outcome = try await BinaryTests.runPrivately(
            ["--continue-on-error", "self.bts"],
            files: ["self.bts": script]
        )
        // Once per command of the top level (which goes on past errors, as asked), not 3^16 times.
        #expect(
            outcome.stderr.components(separatedBy: "nested too deeply").count - 1 == 3,
            "\(outcome.stderr.prefix(600))"
        )
        #expect(outcome.status == 2, "\(outcome)")
    }
}

/// Scripts bts reads: from a pipe (`bts <(…)`, `/dev/stdin`: "cannot read script"), and not past
/// `ScriptFile.maxBytes` (a 14 MB script took 54 s and 2.5 GB before it ran).
@Suite("bts binary: reading scripts")
struct ScriptFileTests {
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aScriptFromAPipeRuns() async throws {
        let substituted = try await BinaryTests.bash("\"$BTS\" <(echo 'echo from-a-pipe')")
        #expect(substituted.status == 0, "\(substituted)")
        #expect(substituted.stdout == "from-a-pipe\n", "\(substituted)")
        let stdin = try await BinaryTests.bash("echo 'echo from-stdin' | \"$BTS\" /dev/stdin")
        #expect(stdin.status == 0, "\(stdin)")
        #expect(stdin.stdout == "from-stdin\n", "\(stdin)")
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aScriptLargerThanTheLimitIsRefused() async throws {
        let big = String(repeating: "echo x\n", count: (1 << 20) / 7 + 1)
        let outcome = try await BinaryTests.runPrivately(["big.bts", "--continue-on-error"], files: ["big.bts": big])
        #expect(outcome.status == 2, "\(outcome.status)")
        #expect(outcome.stdout.isEmpty)
        #expect(
            outcome.stderr.hasSuffix("big.bts': it is larger than 1 MB (scripts are at most that)\n"),
            "\(outcome.stderr)"
        )
        let sourced = try await BinaryTests.runPrivately(["-c", "source big.bts"], files: ["big.bts": big])
        #expect(sourced.status == 2)
        #expect(sourced.stderr.contains("cannot read 'big.bts': it is larger than 1 MB"), "\(sourced.stderr)")
    }
}
