import Foundation
import Testing

/// Standard output that cannot be written fails the run (it ended 0 with an empty file): `bts … >
/// /dev/full` stops, says so once, exits 1; a reader that went away (`| head -1`) ends it with 141.
@Suite("bts binary: standard output that cannot be written")
struct OutputFailureTests {
    @Test(
        .enabled(
            if: BinaryTests.hasBinary && FileManager.default.fileExists(atPath: "/dev/full"),
            "needs the bts binary and /dev/full"
        )
    )
    func aFullDiskFailsTheRunInOneSentence() async throws {
        for how in ["\"$BTS\" -c 'echo one; echo two; echo three'", "printf 'echo a\\necho b\\n' | \"$BTS\""] {
            let outcome = try await BinaryTests.bash("\(how) > /dev/full; echo \"status $?\"")
            #expect(outcome.stdout == "status 1\n", "\(how): \(outcome)")
            #expect(outcome.stderr == "error: cannot write the output: No space left on device\n", "\(how): \(outcome)")
        }
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aReaderThatWentAwayEndsTheRun() async throws {
        // An inner pipeline first: it leaves SIGPIPE ignored, so only the failed write can stop the run.
        let script = "echo inner | cat > /dev/null\nfor i in words 1 2 3 4 5 6 7 8 9 10\necho line $i\nsleep 0.05\nend"
        let outcome = try await BinaryTests.bash("\"$BTS\" -c '\(script)' | head -1; echo \"status ${PIPESTATUS[0]}\"")
        #expect(outcome.stdout == "line 1\nstatus 141\n", "\(outcome)")
        #expect(outcome.stderr.isEmpty, "\(outcome)")
    }
}
