import BooksTrackContract
import BooksTrackLibrary
import Foundation
import Testing

/// `$_` in the shell is JSON: the books in it, whatever the command.
@Suite(.onWorkThreads) struct JSONBooksTests {
    func json(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test func flatResultsOfEveryShape() throws {
        let v2 = try json(
            #"{"query":{"q":"dune","mode":"text","limit":5},"results":[{"isbn":"9780441172719","title":"Dune","authors":["Frank Herbert"],"publishedYear":1965,"score":0.9},{"isbn13":"0441172717","title":"Dune","author":"Frank Herbert","score":0.5}],"totalCount":2}"#
        )
        let books = BookData.books(in: v2)
        #expect(books.count == 1, "the same ISBN twice is one book")
        #expect(books.first?.isbn13 == "9780441172719")
        #expect(books.first?.publishedYear == 1965)

        let similar = try json(
            #"{"source_isbn":"9780439023481","results":[{"isbn":"9780439023498","title":"Catching Fire","authors":["Suzanne Collins"],"similarity_score":0.8,"cover_url":"https://x/cf.jpg"}]}"#
        )
        #expect(BookData.books(in: similar).first?.coverURL == "https://x/cf.jpg")
        #expect(BookData.books(in: similar).first?.authors == ["Suzanne Collins"], "source_isbn alone is not a book")

        let recs = try json(
            #"{"weekOf":"2025-02-03","items":[{"isbn":"9780441172719","title":"Dune","authors":[{"name":"Frank Herbert"}],"reason":"classic"}]}"#
        )
        #expect(BookData.books(in: recs).first?.authors == ["Frank Herbert"])
    }

    @Test func workEditionShapeAndBatchItems() throws {
        let response = BookSearchResponse(
            works: [WorkDTO(title: "Dune", firstPublicationYear: 1965)],
            editions: [
                EditionDTO(isbns: ["9780441172719"], format: .paperback, isbn: "9780441172719", publisher: "Ace")
            ],
            authors: [AuthorDTO(name: "Frank Herbert")]
        )
        let value = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(["data": response]))
        let books = BookData.books(in: value)
        #expect(books.map(\.title) == ["Dune"])
        #expect(books.first?.publisher == "Ace")
        #expect(books.first?.authors == ["Frank Herbert"])

        let batch = try json(
            #"[{"title":"Dune","isbn":"9780441172719","success":true,"enriched":{"work":{"title":"Dune","subjectTags":["sf"]},"edition":{"isbns":["9780441172719"],"publisher":"Ace"},"authors":[{"name":"Frank Herbert"}]}},{"title":"Nope","success":false,"error":"not found"}]"#
        )
        let items = BookData.books(in: batch)
        #expect(items.map(\.title) == ["Dune"], "a failed item without ISBN or authors is not a book")
        #expect(items.first?.subjects == ["sf"])
    }

    @Test func boundedAndQuietOnNonBooks() throws {
        #expect(BookData.books(in: try json(#"{"jobId":"j1","status":"completed","progress":1}"#)).isEmpty)
        #expect(BookData.books(in: .string("Dune")).isEmpty)
        var deep: JSONValue = .object(["title": "Deep", "isbn": "9780441172719"])
        for _ in 0..<20 { deep = .array([deep]) }
        #expect(BookData.books(in: deep).isEmpty, "nesting beyond 12 levels is skipped")
        let many = JSONValue.array((0..<5000).map { i in .object(["title": .string("B\(i)"), "author": "A"]) })
        #expect(BookData.books(in: many, nodeLimit: 100).count < 100)
    }
}
