import BTSShell
import BTSTerminalText
import Foundation

extension ScriptTestRun {
    /// What standard error shows for one file as it finishes, without a final newline:
    /// ```
    /// tests/a.bts: Success (2 expects, 0.41 s)
    /// tests/b.bts: Failure (2 of 3 expects failed, 0.20 s)
    ///   tests/b.bts:3:1: expectation failed: ${_.totalCount} > 100
    ///     left:  12
    ///     right: 100
    /// tests/c.bts: Error (exit 2, 0.01 s)
    ///   tests/c.bts: syntax error: unterminated string
    /// ```
    /// With `colored`, the verdict is green or red and each failure's location bold.
    /// Controls in the text are neutralised by `TerminalText`.
    package static func line(for result: ScriptTestResult, colored: Bool) -> String {
        let time = decimal(result.seconds, places: 2) + " s"
        let head: String
        switch result.outcome {
        case .passed:
            head = style("Success", .green, colored) + " (\(expects(result.expectations)), \(time))"
        case .failed:
            let failures = result.failures.count
            let counts =
                failures > 0 && failures <= result.expectations
                ? "\(failures) of \(expects(result.expectations)) failed" : expects(result.expectations)
            head = style("Failure", .red, colored) + " (\(counts), \(time))"
        case .errored:
            head = style("Error", .red, colored) + " (exit \(result.exitStatus), \(time))"
        }
        var lines = [terminalSafe(result.file) + ": " + head]
        for failure in result.failures {
            lines.append(
                "  " + style(terminalSafe(failure.location) + ":", .bold, colored) + " " + terminalSafe(failure.message)
            )
            lines += failure.details.map { "    " + terminalSafe($0) }
        }
        return lines.joined(separator: "\n")
    }

    /// How much of a file's captured output the summary shows: the last 20 lines of each stream,
    /// each cut at 300 characters.
    package static let shownOutput = (lines: 20, characters: 300)

    /// What a file that did not pass wrote (as pytest shows a failing test's captured output),
    /// for the summary after its line, without a final newline; nil for a file that passed or
    /// wrote nothing. Each stream that has text, its last `shownOutput` lines, neutralised by
    /// `TerminalText`:
    /// ```
    ///   captured stdout:
    ///     {"results": …}
    ///   captured stderr (last 20 of 31 lines):
    ///     …
    /// ```
    /// With `colored`, the headings are dim.
    package static func capturedOutput(for result: ScriptTestResult, colored: Bool) -> String? {
        guard result.outcome != .passed else { return nil }
        var lines: [String] = []
        for (name, text) in [("stdout", result.standardOutput), ("stderr", result.standardError)] {
            let all = outputLines(text)
            guard !all.isEmpty else { continue }
            let shown = all.suffix(shownOutput.lines)
            let count = shown.count < all.count ? " (last \(shown.count) of \(all.count) lines)" : ""
            lines.append("  " + style("captured \(name)\(count):", .dim, colored))
            lines += shown.map { line in
                "    " + (line.count > shownOutput.characters ? line.prefix(shownOutput.characters) + "…" : line)
            }
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// Captured text as lines with nothing a terminal would obey (a last empty line dropped).
    static func outputLines(_ text: String) -> [String] {
        var lines = TerminalText.sanitize(text).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init
        )
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The closing line of a run, without a final newline:
    /// `Executed files: 3 · passed 1 (33.3%) · failed 1 · errored 1 · 1.20 s`.
    /// With `colored`, the count of files is bold, a non-zero passed count green and non-zero
    /// failed and errored counts red.
    package func totals(colored: Bool) -> String {
        var parts = [Self.style("Executed files: \(tests)", .bold, colored)]
        if tests > 0 {
            let share = Self.decimal(Double(passed) * 100 / Double(tests), places: 1)
            parts.append(Self.style("passed \(passed)", .green, colored && passed > 0) + " (\(share)%)")
            parts.append(Self.style("failed \(failed)", .red, colored && failed > 0))
            parts.append(Self.style("errored \(errored)", .red, colored && errored > 0))
        }
        parts.append(Self.decimal(seconds, places: 2) + " s")
        return parts.joined(separator: " · ")
    }

    private static func expects(_ count: Int) -> String {
        switch count {
        case 0: "no expects"
        case 1: "1 expect"
        default: "\(count) expects"
        }
    }

    private static func style(_ text: String, _ style: ANSIStyle, _ colored: Bool) -> String {
        style.apply(text, enabled: colored)
    }

    /// `text` on one line with nothing a terminal would obey (the shell's one sanitiser).
    private static func terminalSafe(_ text: String) -> String {
        TerminalText.sanitize(text, lines: .flatten)
    }
}
