import CEditLine
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Chooses the line reader for this process.
package enum LineReaderFactory {
    /// True when stdin and the chosen output are terminals (libedit editing possible).
    package static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// A `LineEditor` when stdin is a terminal (its output goes to stdout, or to stderr when
    /// stdout is redirected, like bash), else a `PlainLineReader` on stdin (no prompt, no history,
    /// no editing). `configuration.isComplete` applies to both.
    package static func make(configuration: LineEditor.Configuration) -> any LineReader {
        if standardInputIsTerminal {
            let output = isatty(STDOUT_FILENO) == 1 ? bts_stdout() : bts_stderr()
            if let editor = LineEditor(configuration: configuration, output: output) { return editor }
        }
        return PlainLineReader(fileDescriptor: STDIN_FILENO, isComplete: configuration.isComplete)
    }
}
