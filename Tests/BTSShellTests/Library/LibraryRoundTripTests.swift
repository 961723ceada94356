import BTSShell
import BooksTrackContract
import BooksTrackLibrary
import Foundation
import Testing

/// The done-when round trip, through the shell against the embedded backend: an export file →
/// `import FILE --watch` → library → `library export` → import into a fresh library gives the same
/// books, shelves, ratings and dates; a second import of the same file adds nothing.
@Suite("Library round trip")
struct LibraryRoundTripTests {
    @Test func goodreadsExportRoundTrip() async throws {
        try await roundTrip("goodreads_library_export.csv")
    }

    @Test func storyGraphExportRoundTrip() async throws {
        try await roundTrip("storygraph_export.csv")
    }

    func roundTrip(_ fixture: String) async throws {
        let original = try LibraryFixtures.text(fixture)
        let rows = try ExportReader.read(original).books.count
        var exported = ""
        var first: [String: KeptFields] = [:]
        try await withShell { shell in
            try shell.write(fixture, original)
            #expect(await shell.run("import \(fixture) --watch") == 0, "\(shell.err)")
            let imported = await shell.lastResult()
            #expect(imported["library"]?["created"]?.intValue ?? 0 > 0, "\(imported)")
            #expect(imported["library"]?["updated"]?.intValue == 0)

            // The same file again adds nothing.
            #expect(await shell.run("import \(fixture) --watch") == 0, "\(shell.err)")
            let again = await shell.lastResult()
            #expect(again["library"]?["created"]?.intValue == 0, "\(again)")
            #expect(again["library"]?["updated"]?.intValue == 0, "\(again)")
            // `results JOB` saves too (and adds nothing the second time).
            #expect(await shell.run("results last") == 0, "\(shell.err)")
            let later = await shell.lastResult()
            #expect(later["library"]?["created"]?.intValue == 0, "\(later)")
            #expect(later["library"]?["alreadyThere"]?.intValue == rows, "\(later)")

            #expect(await shell.run("library list") == 0)
            first = KeptFields.byBook(await shell.lastResult())
            #expect(first.count == rows, "\(first.count) books from \(rows) rows")

            #expect(await shell.run("library export exported.csv") == 0, "\(shell.err)")
            exported = try String(contentsOf: shell.directory.appendingPathComponent("exported.csv"), encoding: .utf8)
        }
        #expect(exported.hasPrefix("Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,"))

        try await withShell { fresh in
            try fresh.write("exported.csv", exported)
            #expect(await fresh.run("import exported.csv --watch") == 0, "\(fresh.err)")
            #expect(await fresh.run("library list") == 0)
            let second = KeptFields.byBook(await fresh.lastResult())
            #expect(Set(second.keys) == Set(first.keys))
            for (key, fields) in first {
                #expect(
                    second[key] == fields,
                    "\(key): \(fields) became \(second[key].map(String.init(describing:)) ?? "nothing")"
                )
            }
            #expect(await fresh.run("import exported.csv --watch") == 0)
            #expect(await fresh.lastResult()["library"]?["created"]?.intValue == 0)
        }
    }

    /// StoryGraph files import at all: their ISBN/UID column is read by the server (an ASIN is
    /// not an ISBN: that row is an error there, and kept by title and author in the library).
    @Test func storyGraphISBNsReachTheServer() async throws {
        try await withShell { shell in
            try shell.write("sg.csv", try LibraryFixtures.text("storygraph_export.csv"))
            #expect(await shell.run("import sg.csv --watch") == 0, "\(shell.err)")
            let result = await shell.lastResult()
            let books = result["books"]?.arrayValue ?? []
            #expect(books.contains { $0["isbn13"]?.stringValue == "9780060853983" }, "\(result)")
            #expect(await shell.run("library show \"project hail mary\"") == 0, "\(shell.err)")
            let hailMary = await shell.lastResult()
            #expect(hailMary["asin"]?.stringValue == "B08FHBV4ZX")
            #expect(hailMary["isbn"] == nil)
            #expect(hailMary["rating"]?.doubleValue == 5)
            #expect(await shell.run("library show 9780060853983") == 0)
            let omens = await shell.lastResult()
            #expect(omens["rating"]?.doubleValue == 4.5)
            #expect(omens["authors"]?.arrayValue?.count == 2)
            #expect(omens["dateRead"]?.stringValue == "2022-04-10")
        }
    }
}
