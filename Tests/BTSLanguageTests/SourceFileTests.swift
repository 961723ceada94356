import BTSLanguage
import Testing

@Suite struct SourceFileTests {
    @Test func linesAndColumns() {
        let source = SourceFile(name: "s.bts", text: "ab\ncd\r\n\nlast")
        #expect(source.lineCount == 4)
        #expect(source.location(of: 0).description == "1:1")
        #expect(source.location(of: 2).description == "1:3")
        #expect(source.location(of: 3).description == "2:1")
        #expect(source.location(of: 7).description == "3:1")
        #expect(source.location(of: 8).description == "4:1")
        #expect(source.location(of: 11).description == "4:4")
        #expect(source.location(of: 999).description == "4:5")
        #expect(source.lineText(2) == "cd")
        #expect(source.lineText(3) == "")
        #expect(source.lineText(4) == "last")
    }

    @Test func columnsCountDisplayCells() {
        let source = SourceFile(name: "s", text: "é三📚x\tz")
        // é: 2 bytes, 1 cell; 三: 3 bytes, 2 cells; 📚: 4 bytes, 2 cells.
        #expect(source.location(of: 2).column == 2)
        #expect(source.location(of: 5).column == 4)
        #expect(source.location(of: 9).column == 6)
        #expect(source.location(of: 10).column == 7)
        #expect(source.location(of: 11).column == 9)
    }

    @Test func combiningCharactersShareACell() {
        let source = SourceFile(name: "s", text: "e\u{301}x")
        #expect(source.location(of: 3).column == 2)
    }

    @Test func sliceClampsOutOfRange() {
        let source = SourceFile(name: "s", text: "abc")
        #expect(source.slice(SourceRange(offset: 1, length: 99)) == "bc")
        #expect(source.slice(SourceRange(offset: 99, length: 1)) == "")
        #expect(source.slice(SourceRange(offset: -3, length: 4)) == "a")
    }

    @Test func rangeHelpers() {
        let a = SourceRange(offset: 2, length: 3)
        let b = SourceRange(from: 4, to: 9)
        #expect(a.union(b) == SourceRange(offset: 2, length: 7))
        #expect(a.union(b).contains(a))
        #expect(!a.contains(b))
        #expect(SourceRange(offset: 5, length: -2).length == 0)
    }
}
