import Foundation

/// What one `readLine` call produced.
package enum LineEditorResult: Sendable, Equatable {
    /// A complete input (possibly several physical lines joined with "\n" when the
    /// caller's `isComplete` asked for continuation lines). No trailing newline.
    case line(String)
    /// End of input: Ctrl-D on an empty line, or stdin closed.
    case eof
    /// Ctrl-C at the prompt (the typed text was discarded), or the read was cancelled.
    case interrupted
    /// A line of a stream that is not UTF-8 (``PlainLineReader``), with any continuation lines
    /// read before it dropped; the next read goes on after it.
    case notUTF8(UndecodableLine)
}

/// The prompts for one `readLine` call. A plain string literal is a primary prompt.
///
/// Prompts may contain ANSI colour (SGR/CSI) sequences; the editor marks them as
/// zero-width for libedit so the cursor position stays right.
package struct LinePrompt: Sendable, Equatable, ExpressibleByStringLiteral {
    /// Shown before the first line.
    package var primary: String
    /// Shown before each continuation line while `isComplete` returns false.
    package var continuation: String
    /// The continuation prompt for the input read so far (what it leaves open: a quote, a block);
    /// nil: `continuation` always.
    package var continuationAfter: (@Sendable (String) -> String)?
    /// Shown at the right edge of the first line (e.g. the tightest rate-limit budget), if any.
    package var right: String?
    /// Recomputes `right` for a moment while the read waits (a budget's reset countdown); the line
    /// editor asks about once a second and redraws when the text changed. Nil: `right` is fixed.
    package var liveRight: (@Sendable (Date) -> String?)?

    package init(
        _ primary: String,
        continuation: String = "... ",
        right: String? = nil,
        liveRight: (@Sendable (Date) -> String?)? = nil,
        continuationAfter: (@Sendable (String) -> String)? = nil
    ) {
        self.primary = primary
        self.continuation = continuation
        self.right = right
        self.liveRight = liveRight
        self.continuationAfter = continuationAfter
    }

    /// The prompt before the line that follows `pending` (the input so far).
    package func continuation(after pending: String) -> String {
        continuationAfter?(pending) ?? continuation
    }

    /// Equal texts (the live function cannot be compared; only its presence is).
    package static func == (lhs: LinePrompt, rhs: LinePrompt) -> Bool {
        lhs.primary == rhs.primary && lhs.continuation == rhs.continuation && lhs.right == rhs.right
            && (lhs.liveRight == nil) == (rhs.liveRight == nil)
            && (lhs.continuationAfter == nil) == (rhs.continuationAfter == nil)
    }

    package init(stringLiteral value: String) {
        self.init(value)
    }
}

/// Reads logical input lines. `LineEditor` (a terminal, libedit) and `PlainLineReader`
/// (a pipe or file: no prompt, no history) both conform, so the REPL loop is the same.
package protocol LineReader: AnyObject, Sendable {
    /// Reads one logical line (continuation lines included). Never throws: errors end the
    /// input (`.eof`). Cancelling the calling task ends a pending read with `.interrupted`.
    func readLine(prompt: LinePrompt) async -> LineEditorResult

    /// Ends a pending (or the next) `readLine` with `.interrupted`, from any thread or a signal
    /// handler task (e.g. on SIGTERM, so the REPL loop can notice it should end).
    func cancelRead()

    /// Puts the terminal back in its original mode (no-op when not a terminal). For exit paths.
    func restoreTerminal()
}

extension LineReader {
    /// Reads one logical line with `prompt` as the primary prompt.
    package func readLine(prompt: String) async -> LineEditorResult {
        await readLine(prompt: LinePrompt(prompt))
    }
}

/// Decides whether accumulated input is a complete command (e.g. no unclosed quote and no
/// trailing `\`). Called with all lines so far joined by "\n".
package typealias InputCompletenessCheck = @Sendable (String) -> Bool
