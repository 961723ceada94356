import BooksTrackClient
import Testing

/// ISBN-10 cells of an upload become ISBN-13 (no router takes an ISBN-10 ending in X); nothing else moves.
@Suite struct CSVISBNRewriterTests {
    static func rewrite(_ text: String) -> String? {
        CSVISBNRewriter.rewrite(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func goodreadsCellsKeepTheirFormula() {
        let csv =
            "Book Id,Title,ISBN,ISBN13\r\n1,\"Harry, the \"\"boy\"\"\",=\"043942089X\",=\"\"\r\n2,Dune,=\"0441172717\",=\"9780441172719\"\r\n"
        let out = Self.rewrite(csv)
        #expect(
            out
                == "Book Id,Title,ISBN,ISBN13\r\n1,\"Harry, the \"\"boy\"\"\",=\"9780439420891\",=\"\"\r\n2,Dune,=\"9780441172719\",=\"9780441172719\"\r\n"
        )
    }

    @Test func plainAndQuotedCellsAndMultilineFields() {
        let csv = "title,isbn,notes\nA,043942089X,\"line one\nline two, 0441172717\"\nB,\"0-441-17271-7\",x\n"
        let out = Self.rewrite(csv)
        // The notes' ISBN-like text is not in an ISBN column: it stays.
        #expect(out == "title,isbn,notes\nA,9780439420891,\"line one\nline two, 0441172717\"\nB,\"9780441172719\",x\n")
    }

    @Test func nothingToChangeIsNil() {
        #expect(Self.rewrite("title,isbn\nA,9780439023481\n") == nil)
        #expect(Self.rewrite("title,author\nA,B\n") == nil)
        #expect(Self.rewrite("") == nil)
        #expect(Self.rewrite("title,isbn\nA,not an isbn\n") == nil)
        #expect(Self.rewrite("title,isbn\nA,\"unterminated") == nil)
    }
}
