import Testing

@testable import BTSShell

/// A file cut into logical lines (the rc file runs each on its own): continuation lines, open
/// quotes and blocks are joined to the line they start on.
@Suite("logical lines")
struct LogicalLinesTests {
    @Test func linesRunOnWhileTheyAreUnfinished() {
        let text = "set a 1\necho \\\n  two\nfor x in words a b\n  echo $x\nend\necho 'open\nquote'"
        let chunks = ScriptFile.logicalLines(text).map { "\($0.line): \($0.text)" }
        #expect(
            chunks == [
                "1: set a 1", "2: echo \\\n  two", "4: for x in words a b\n  echo $x\nend", "7: echo 'open\nquote'",
            ]
        )
    }

    @Test func anUnfinishedLastLineIsKeptAsItIs() {
        #expect(ScriptFile.logicalLines("echo 'never closed").map(\.text) == ["echo 'never closed"])
    }
}
