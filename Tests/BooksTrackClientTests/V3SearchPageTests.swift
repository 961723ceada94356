import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackClient

/// A v3 search page is read up to the route's largest page (100): a server sending 100,000 results
/// costs the client the first 100 (decoding each as a tree and again as a book took seconds), a
/// result that is not a book is skipped, and `results` that is not a list is an invalid answer.
@Suite struct V3SearchPageTests {
    static func page(_ results: String) -> V3SearchPage? {
        CorrectedQueryDecodingTests.decode(
            V3SearchPage.self,
            #"{"success":true,"data":{"results":\#(results),"totalCount":100000},\#(CorrectedQueryDecodingTests.metadata)}"#
        )
    }

    @Test func aHundredThousandResultsAreReadUpToThePage() throws {
        let books = (0..<100_000).map { #"{"isbn":"9780451524935","title":"Book \#($0)","authors":["George Orwell"]}"# }
        let page = try #require(Self.page("[" + books.joined(separator: ",") + "]"))
        #expect(page.books.count == V3Limits.searchPage.upperBound)
        #expect(page.books.first?.title == "Book 0" && page.books.last?.title == "Book 99")
        #expect(page.totalCount == 100_000)
    }

    @Test func aResultThatIsNotABookIsSkipped() throws {
        let page = try #require(
            Self.page(
                #"[{"isbn":"9780451524935","title":"One"},42,"two",{"isbn":"9780451524935","title":["x"]},{"title":"No ISBN"},{"isbn13":"9780451524935","title":"Three"}]"#
            )
        )
        #expect(page.books.map(\.title) == ["One", "Three"])
        #expect(Self.page("null")?.books.isEmpty == true)
        #expect(Self.page(#""many""#) == nil)
        #expect(Self.page(#"{"isbn":"9780451524935","title":"One"}"#) == nil)
    }
}
