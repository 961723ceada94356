import BTSShell
import BooksTrackContract
import Foundation
import Testing

/// `similar TITLE…`: words that are not an ISBN name the source by title (the first title match
/// with an ISBN), on the embedded backend over the real catalog.
@Suite("similar by title")
struct SimilarByTitleTests {
    @Test func aTitleNamesTheSource() async throws {
        try await withShell { harness in
            #expect(await harness.run("similar 1984 --limit 3\n") == 0, "\(harness.err)")
            let result = await harness.lastResult()
            #expect(result["sourceIsbn"] == .string("9780451524935"))
            #expect(result["sourceTitle"] == .string("1984"))
            let titles = result["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
            #expect(titles.first == "Brave New World", "\(titles)")
            // Several words, unquoted, are one title.
            #expect(await harness.run("similar the left hand of darkness --limit 3\n") == 0, "\(harness.err)")
            #expect(await harness.lastResult()["sourceTitle"] == .string("The Left Hand of Darkness"))
        }
    }

    @Test func anISBNIsStillAnISBN() async throws {
        try await withShell { harness in
            #expect(await harness.run("similar 978-0-451-52493-5 --limit 3\n") == 0, "\(harness.err)")
            let result = await harness.lastResult()
            #expect(result["sourceIsbn"] == .string("9780451524935"))
            // Named from the embedded backend's catalog (its footer said only the ISBN).
            #expect(result["sourceTitle"] == .string("1984"))
            // ISBN-looking words with a wrong check digit are a usage error, not a title.
            #expect(await harness.run("similar 978-0-439-02348-2\n") == 2)
            #expect(harness.err.contains("checksum"), "\(harness.err)")
        }
    }

    @Test func noTitleMatchIsNotFoundAndBlankIsUsage() async throws {
        try await withShell { harness in
            #expect(await harness.run("similar xqzzyvw\n") == 1)
            #expect(harness.err.contains("No book titled like 'xqzzyvw' in the catalog"), "\(harness.err)")
            #expect(await harness.run("similar \"  \"\n") == 2)
            #expect(harness.err.contains("the book to start from is empty"), "\(harness.err)")
        }
    }

    @Test func theTableFooterNamesTheTitle() async throws {
        try await withShell { harness in
            #expect(
                await harness.run("similar to kill a mockingbird --limit 2 --output table\n") == 0,
                "\(harness.err)"
            )
            #expect(harness.out.contains("(2 similar to To Kill a Mockingbird, 9780061120084)"), "\(harness.out)")
        }
    }
}
