import BTSShell
import Testing

/// An error on a terminal is wrapped at spaces to its width; elsewhere it stays one line.
@Suite struct ErrorReporterTests {
    let error = ShellError(
        .failure,
        "Cannot reach the BooksTrack server at http://127.0.0.1:9 (connection refused): is it running, and is the address right?",
        details: ["try 'connect URL' to pick another server, or 'connect embedded' to use the built-in one for now"]
    )

    @Test func onATerminalTheMessageAndDetailsFitItsWidth() {
        let text = ErrorReporter(colored: false, showsLocation: false, width: 80).render(error, in: nil)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 4, "\(text)")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(text)")
        #expect(lines[0].hasPrefix("error: Cannot reach"))
        #expect(lines[1].hasPrefix("  ") && !lines[1].hasPrefix("   "))
        #expect(lines[2].hasPrefix("  try") && lines[3].hasPrefix("    "))
        // The words, in order, are the message's and the detail's.
        let words = lines.joined(separator: " ").split(separator: " ").map(String.init)
        let expected = (["error:"] + (error.message + " " + error.details[0]).split(separator: " ").map(String.init))
        #expect(words == expected)
    }

    @Test func withoutAWidthEachStaysOneLine() {
        let text = ErrorReporter(colored: false, showsLocation: false).render(error, in: nil)
        #expect(text == "error: \(error.message)\n  \(error.details[0])\n")
    }

    /// A message that fits is left as it is (two spaces inside stay two).
    @Test func aShortMessageIsUntouched() {
        let short = ShellError(.failure, "no such  book")
        let text = ErrorReporter(colored: false, showsLocation: false, width: 80).render(short, in: nil)
        #expect(text == "error: no such  book\n")
    }

    /// A program's own failure (`bts serve`'s start-up) names the program before `error:`; the
    /// message is neutralised as the shell's are.
    @Test func aProgramsFailureNamesTheProgram() {
        let failure = ShellError(.network, "port 8787 is already in use\u{1B}[2J on 127.0.0.1")
        let text = ErrorReporter(origin: "bts serve").render(failure, in: nil)
        #expect(text.hasPrefix("bts serve: error: port 8787 is already in use"), "\(text)")
        #expect(!text.contains("\u{1B}"), "\(text)")
        #expect(text.hasSuffix("\n") && text.split(separator: "\n").count == 1)
    }
}
