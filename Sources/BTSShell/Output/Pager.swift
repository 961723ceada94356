import BTSTerminal
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Shows a command's output held back for the terminal: taller than the terminal, it goes through
/// `$PAGER` (default `less -FRX`); shorter, it is printed as is.
struct Pager: Sendable {
    /// The session's environment (`PAGER`, `LESSCHARSET`).
    var environment: [String: String]
    /// Where the text goes when it is not paged.
    var sink: any OutputSink

    /// Shows `text`, `rows` being the terminal's height (nil: not a terminal). Returns the error the
    /// command ends with: `failure` (its own), or, when the pager failed after it ran, a silent
    /// failure (status 1), said on `output`'s stderr as a pager that could not run is.
    func show(_ text: String, rows: Int?, failure: (any Error)?, output: ShellOutput) async -> (any Error)? {
        let lines = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        guard let rows, lines >= rows, !text.isEmpty else {
            sink.write(text, to: .standardOutput)
            return failure
        }
        let pager =
            environment["PAGER"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            ?? "less -FRX"
        let status =
            (try? await ShellPipeline.run(
                Self.command(pager, environment: environment),
                input: Array(text.utf8),
                output: nil
            )) ?? 127
        if status == 127 || status == 126 {
            output.warn("the pager '\(pager)' could not be run; set PAGER or 'set pager off'")
            sink.write(text, to: .standardOutput)
        } else if status != 0, failure == nil {
            // Its output may be lost: said, and the command failed, as after any failed
            // pipeline (1: bts's exit statuses keep their meaning).
            output.warn("the pager '\(pager)' exited with status \(status); 'set pager off' prints without it")
            return SilentFailure(status: ExitStatus.failure.rawValue)
        }
        return failure
    }

    /// The pager's shell command: bts writes UTF-8 whatever the locale says, so `less` is told so
    /// (`LESSCHARSET=utf-8`) unless the user set LESSCHARSET; without it, where LANG is unset, less
    /// showed a dash as `<E2><80><94>`.
    static func command(_ pager: String, environment: [String: String]) -> String {
        environment["LESSCHARSET"] == nil ? "LESSCHARSET=utf-8; export LESSCHARSET; " + pager : pager
    }

    /// The terminal's height (rows) on stdout, if it is a terminal.
    static func terminalRows() -> Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }
}
