import Foundation
import Testing

/// `expect … matches` with a catastrophic pattern in the REPL. Before the
/// bounded engine, `(a*)*b` against 22 a's took 29 s and Ctrl-C could not stop it; the engine is
/// linear-time with a 200 M step budget and checks for cancellation every 1,024 positions.
/// Waits are generous bounds on screen states, never asserted durations.
extension InteractiveShellTests {
    /// Types `line` and waits until the prompt is alone on the last line again.
    private func enter(_ session: TmuxSession, _ line: String, timeout: Duration = .seconds(60)) async throws {
        try session.type(line)
        try session.press("Enter")
        try await session.see(Self.prompt + line)
        try await session.waitForLastLine(Self.prompt, timeout: timeout)
    }

    /// The screen text after the last occurrence of `line`.
    private static func after(_ line: String, in screen: String) -> String {
        guard let range = screen.range(of: line, options: .backwards) else { return screen }
        return String(screen[range.upperBound...])
    }

    @Test("a catastrophic 'matches' answers at once; a budget-long one ends at its budget, and Ctrl-C stops it")
    func catastrophicMatchAnswersAndCtrlCInterrupts() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"], height: 80)  // the 5,120 a's the failure shows fit
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)

        // 5 × 2^10 = 5,120 a's in a variable.
        try await enter(session, "set s aaaaa")
        for _ in 0..<10 { try await enter(session, "set s $s$s") }

        // Fails the expectation (exit 4 in a script) with a plain message; the prompt comes back.
        // With a backtracking engine this line would not answer in the lifetime of the test.
        try session.type("expect $s matches '(a*)*b'")
        try session.press("Enter")
        let failed = try await session.waitForScreen(
            timeout: .seconds(60),
            description: "the expectation's answer and the prompt"
        ) { screen in
            screen.contains("right: \"(a*)*b\"")
                && TmuxSession.lastLine(screen) == TmuxSession.trimmingTrailingBlanks(Self.prompt)
        }
        #expect(failed.contains("expectation failed: $s matches (a*)*b"), "\(failed)")
        let negated = "expect not $s matches '(a*)*b'"
        try await enter(session, negated)
        let quiet = Self.after(Self.prompt + negated, in: try session.screen())
        #expect(!quiet.contains("expectation failed"), "\(quiet)")

        // A long match: 5,120 × 2^8 = 1,310,720 a's against a 200-way star runs into the step
        // budget only after many seconds (38 s with the debug build under load). Its output is the
        // same whether Ctrl-C stopped it or the budget did (a cancelled command reports
        // "interrupted"), so the only sign of the interruption is when the prompt comes back:
        // the same match is first run to its budget, and the interrupted one must come back in
        // under a quarter of that time (it comes back within 1,024 positions, milliseconds).
        for _ in 0..<8 { try await enter(session, "set s $s$s") }
        let long = "expect $s matches '(a*){200}b'"
        let idle = TmuxSession.trimmingTrailingBlanks(Self.prompt)
        let started = ContinuousClock.now
        try session.type(long)
        try session.press("Enter")
        let exhausted = try await session.waitForScreen(timeout: .seconds(600), description: "the budget's answer") {
            screen in
            TmuxSession.lastLine(screen) == idle && Self.after(Self.prompt + long, in: screen).contains("too much work")
        }
        let budgetRun = ContinuousClock.now - started
        #expect(exhausted.contains("'matches' stopped: the pattern needs too much work on this value"), "\(exhausted)")

        try session.type(long)
        try session.press("Enter")
        try await Task.sleep(for: .milliseconds(500))
        #expect(TmuxSession.lastLine(try session.screen()) != idle, "the long match ended before Ctrl-C")
        let pressed = ContinuousClock.now
        try session.press("C-c")
        let back = try await session.waitForLastLine(Self.prompt, timeout: .seconds(600))
        let interrupted = ContinuousClock.now - pressed
        print("a budget-long match: \(budgetRun) to its budget; prompt back \(interrupted) after Ctrl-C")
        #expect(
            interrupted < budgetRun / 4,
            "Ctrl-C did not stop the match: \(interrupted) vs \(budgetRun) for the whole budget"
        )
        let answer = Self.after(Self.prompt + long, in: back)
        #expect(!answer.contains("too much work"), "\(answer)")
        try await session.run("echo after-interrupt", expecting: "\nafter-interrupt")
    }
}
