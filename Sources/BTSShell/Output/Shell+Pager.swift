import BTSTerminal
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Shell {
    /// Whether a command typed at the prompt has its output paged: stdout is a terminal, no
    /// redirection is already active, and `set pager` is on.
    func pages(_ context: SourceContext) -> Bool {
        context.interactive && settings.pager && state.redirect == nil && options.terminal.stdoutIsTerminal
            && sink is StandardOutputSink
    }

    /// Runs `body` with stdout held back (shaped for the terminal); output taller than the
    /// terminal goes through `$PAGER` (default `less -FRX`), shorter output is printed as is.
    func withPager(_ body: () async throws -> Void) async throws {
        let capture = CapturingSink(base: sink)
        state.redirect = ActiveRedirect(sink: capture, format: output.format, keepsTerminal: true)
        defer { state.redirect = nil }
        var failure: (any Error)?
        do {
            try await body()
        } catch {
            failure = error
        }
        state.redirect = nil
        let text = String(decoding: capture.bytes, as: UTF8.self)
        let rows = Self.terminalRows()
        let lines = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        if let rows, lines >= rows, !text.isEmpty {
            let pager =
                options.environment["PAGER"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
                ?? "less -FRX"
            let status =
                (try? await ShellPipeline.run(
                    Self.pagerCommand(pager, environment: options.environment),
                    input: Array(text.utf8),
                    output: nil
                )) ?? 127
            if status == 127 || status == 126 {
                warn("the pager '\(pager)' could not be run; set PAGER or 'set pager off'")
                sink.write(text, to: .standardOutput)
            } else if status != 0, failure == nil {
                // Its output may be lost: said, and the command failed, as after any failed
                // pipeline (1: bts's exit statuses keep their meaning).
                warn("the pager '\(pager)' exited with status \(status); 'set pager off' prints without it")
                failure = SilentFailure(status: ExitStatus.failure.rawValue)
            }
        } else {
            sink.write(text, to: .standardOutput)
        }
        if let failure { throw failure }
    }

    /// The pager's shell command: bts writes UTF-8 whatever the locale says, so `less` is told so
    /// (`LESSCHARSET=utf-8`) unless the user set LESSCHARSET; without it, where LANG is unset, less
    /// showed a dash as `<E2><80><94>`.
    static func pagerCommand(_ pager: String, environment: [String: String]) -> String {
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
