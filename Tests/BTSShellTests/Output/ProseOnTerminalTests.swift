import BTSTerminal
import BTSTerminalText
import BooksTrackContract
import Testing

@testable import BTSShell

/// Prose on a terminal (notes, warnings, a result's summary text) is wrapped at spaces to its
/// width, never mid-word; into a pipe or a file it goes as it is.
@Suite("prose on a terminal")
struct ProseOnTerminalTests {
    static let summary = "Goodreads export, 12 books: library 9 created, 2 updated, 1 already there, 0 skipped"

    static func output(_ terminal: TerminalInfo) -> (ShellOutput, BufferOutputSink) {
        let sink = BufferOutputSink()
        let output = ShellOutput(
            sink: sink,
            terminal: terminal,
            noColor: false,
            environment: ["TERM": "dumb"],
            settings: ShellSettings()
        )
        return (output, sink)
    }

    static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    }

    @Test func notesAndWarningsBreakBetweenWordsOnATerminal() {
        let (output, sink) = Self.output(TerminalInfo(stdoutIsTerminal: true, stderrIsTerminal: true, columns: 30))
        output.note(Self.summary)
        output.warn("could not read your columns from /tmp/exports/goodreads_library_export.csv again")
        let lines = sink.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count > 3, "\(lines)")
        for line in lines where line.contains(" ") { #expect(DisplayWidth.of(line) <= 30, "\(lines)") }
        #expect(lines.contains("/tmp/exports/goodreads_library_export.csv"), "a path stays whole: \(lines)")
        #expect(
            Self.words(sink.standardError)
                == Self.words(
                    Self.summary + " warning: could not read your columns from "
                        + "/tmp/exports/goodreads_library_export.csv again"
                )
        )
    }

    @Test func aPipeGetsEachNoteOnOneLine() {
        let (output, sink) = Self.output(TerminalInfo(stdoutIsTerminal: false, stderrIsTerminal: false, columns: 30))
        output.note(Self.summary)
        #expect(sink.standardError == Self.summary + "\n")
        let (table, tableSink) = Self.output(TerminalInfo(stdoutIsTerminal: false, columns: 30))
        table.emit(.record([("count", .number(1))]), .sections([.text(Self.summary)]), format: .table)
        #expect(tableSink.standardOutput == Self.summary + "\n", "a table into a file is not wrapped")
    }

    @Test func aResultsSummaryTextIsWrappedButNotItsJSON() {
        let (output, sink) = Self.output(TerminalInfo(stdoutIsTerminal: true, stderrIsTerminal: true, columns: 30))
        let value = JSONValue.record([("jobId", .string("job-1")), ("note", .string(Self.summary))])
        output.emit(
            value,
            .sections([.record(fields: [RecordField("jobId")]), .text("    " + Self.summary)]),
            format: .table
        )
        let lines = sink.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "jobId  job-1", "\(lines)")
        let text = Array(lines.dropFirst())
        #expect(text.count > 2, "\(lines)")
        for line in text {
            #expect(line.hasPrefix("    ") && DisplayWidth.of(line) <= 30, "each line keeps the indent: \(lines)")
        }
        // The value as indented JSON (the api command's answer) is data: as it is.
        sink.reset()
        output.emit(value, .text(value.prettyJSON), format: .table)
        #expect(sink.standardOutput == value.prettyJSON + "\n")
        // JSON output is never wrapped.
        sink.reset()
        output.emit(value, .text(Self.summary), format: .json)
        #expect(sink.standardOutput.contains(Self.summary))
    }
}
