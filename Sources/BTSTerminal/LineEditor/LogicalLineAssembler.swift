import Foundation

/// One physical line as a reader's blocking side produced it.
enum PhysicalRead: Sendable, Equatable {
    case line(String)
    /// End of input (Ctrl-D on an empty line, or the pipe closed).
    case end
    /// The read was aborted (Ctrl-C at the prompt, `cancelRead()`, task cancellation).
    case interrupted
    /// A line that is not UTF-8 (a plain reader's stream).
    case notUTF8(UndecodableLine)
}

/// The read loop both readers share (`LineEditor` on a terminal, `PlainLineReader` on a pipe):
/// physical lines are read one at a time (each an abortable read on the reader's worker thread)
/// and joined with "\n" until `isComplete` says the input is a whole command; only then is it
/// handed to the interpreter. This is the seam for the language's multi-line constructs: an
/// unclosed quote, a trailing `\`, or an open block (`for … end`) keeps the reader asking for
/// more lines, on a terminal with the continuation prompt, on a pipe as the lines arrive.
/// End of input inside an incomplete command hands over what was read (the parser reports it); a
/// line that is not UTF-8 is handed over as such, whatever was pending.
enum LogicalLineAssembler {
    /// Reads one logical line. `readPhysical(pending, sequence)` reads one physical line for the
    /// read numbered `sequence` of `wakeup` (cancelling the calling task aborts it); `pending` is
    /// the unfinished input read so far (nil before the first line).
    static func read(
        wakeup: EditorWakeup,
        isComplete: InputCompletenessCheck?,
        readPhysical: @Sendable (_ pending: String?, _ sequence: UInt64) async -> PhysicalRead
    ) async -> LineEditorResult {
        var lines: [String] = []
        while true {
            let sequence = wakeup.beginRead()
            defer { wakeup.endRead() }
            if Task.isCancelled { return .interrupted }
            let pending = lines.isEmpty ? nil : lines.joined(separator: "\n")
            let physical = await withTaskCancellationHandler {
                await readPhysical(pending, sequence)
            } onCancel: {
                wakeup.post(.abort(sequence: sequence))
            }
            switch physical {
            case .interrupted:
                return .interrupted
            case .notUTF8(let line):
                return .notUTF8(line)
            case .end:
                return lines.isEmpty ? .eof : .line(lines.joined(separator: "\n"))
            case .line(let line):
                lines.append(line)
                let joined = lines.joined(separator: "\n")
                if isComplete?(joined) ?? true { return .line(joined) }
            }
        }
    }
}
