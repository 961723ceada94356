import TestSupport
import Testing

/// Commands on stdin that are not UTF-8 (`bts < latin1.bts`, `cat latin1.bts | bts`): the lines
/// before the bad one have run as they arrived; the bad line is refused with its line and byte
/// offset, as `bts latin1.bts` refuses it, nothing from it on runs, and no raw byte is printed.
extension PipedInputTests {
    /// The script: its second line holds "café" in Latin-1 (0xE9 at byte 21).
    static let latin1Script = Array("echo before\necho \"caf".utf8) + [0xE9] + Array("\"\necho after\n".utf8)

    @Test("a line on stdin that is not UTF-8 is refused with its line and byte offset", arguments: [true, false])
    func stdinThatIsNotUTF8IsRefused(fromFile: Bool) async throws {
        let sandbox = try TerminalSandbox()
        let outcome = try await Self.run(["--local"], bytes: Self.latin1Script, fromFile: fromFile, sandbox: sandbox)
        let report =
            "\(fromFile ? "bts < latin1.bts" : "cat latin1.bts | bts"): exit \(outcome.status)\n"
            + "--- stdout\n\(outcome.stdout)\n--- stderr\n\(outcome.stderr)"
        #expect(outcome.status == 2, "\(report)")
        // Both streams read as UTF-8 (a raw 0xE9 in either would make it read as "").
        #expect(outcome.stdout == "before\n", "the line before ran, nothing from the bad line on: \(report)")
        #expect(
            outcome.stderr.contains("<stdin>:2:10: not UTF-8 at byte 21 (0xE9); scripts are UTF-8 text"),
            "\(report)"
        )
        #expect(
            !outcome.stdout.contains("\u{FFFD}") && !outcome.stderr.contains("\u{FFFD}"),
            "nothing repaired: \(report)"
        )
    }
}
