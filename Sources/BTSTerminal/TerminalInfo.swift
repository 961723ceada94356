import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the shell knows about where its output goes: terminals or pipes, and the width.
package struct TerminalInfo: Sendable, Hashable {
    package var stdinIsTerminal: Bool
    package var stdoutIsTerminal: Bool
    package var stderrIsTerminal: Bool
    /// Columns available for tables: the terminal's width, else `COLUMNS`, else nil (no limit).
    package var columns: Int?

    package init(
        stdinIsTerminal: Bool = false,
        stdoutIsTerminal: Bool = false,
        stderrIsTerminal: Bool = false,
        columns: Int? = nil
    ) {
        self.stdinIsTerminal = stdinIsTerminal
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.columns = columns
    }

    /// No terminal anywhere (tests, pipes).
    package static let pipes = TerminalInfo()

    /// Inspects the process's standard streams.
    package static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalInfo {
        TerminalInfo(
            stdinIsTerminal: isatty(STDIN_FILENO) == 1,
            stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
            stderrIsTerminal: isatty(STDERR_FILENO) == 1,
            columns: width(environment: environment)
        )
    }

    /// The width of the terminal on stdout (or stderr) via `TIOCGWINSZ`, else `COLUMNS`.
    package static func width(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] where isatty(descriptor) == 1 {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        return nil
    }
}
