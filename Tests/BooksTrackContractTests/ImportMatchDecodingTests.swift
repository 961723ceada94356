import BooksTrackContract
import Foundation
import Testing

/// An import's `matches` (bts's own server) round-trips, is read leniently, and is a hint: its absence
/// (production) is no match listed, and a malformed one never fails the results.
@Suite struct ImportMatchDecodingTests {
    static let dun = ImportMatch(
        row: 2,
        csvTitle: "Dun",
        matchedTitle: "Dune (Dune Chronicles #1)",
        matchedAuthors: ["Frank Herbert"],
        isbn: "9780340839935",
        matchedBy: .title
    )

    @Test func matchesRoundTripAndAreLeftOutWhenThereAreNone() throws {
        let results = ImportResults(
            booksCreated: 1,
            booksUpdated: 0,
            duplicatesSkipped: 0,
            enrichmentSucceeded: 1,
            enrichmentFailed: 0,
            books: [Book(isbn: "9780340839935", title: "Dune (Dune Chronicles #1)", authors: ["Frank Herbert"])],
            matches: [Self.dun]
        )
        #expect(try roundTrip(results) == results)
        #expect(
            try encodedObject(results)["matches"] == [
                [
                    "row": 2, "csvTitle": "Dun", "matchedTitle": "Dune (Dune Chronicles #1)",
                    "matchedAuthors": ["Frank Herbert"],
                    "isbn": "9780340839935", "matchedBy": "title",
                ]
            ]
        )
        var none = results
        none.matches = []
        #expect(try encodedObject(none)["matches"] == nil)
        // A match without an ISBN (a catalog book without one) leaves the key out.
        var bare = Self.dun
        bare.isbn = nil
        #expect(try encodedObject(bare)["isbn"] == nil)
    }

    @Test func matchesAreReadLenientlyAndNeverFailTheResults() throws {
        func decode(_ text: String) throws -> ImportResults {
            try JSONCoding.decoder().decode(ImportResults.self, from: Data(text.utf8))
        }
        // Production: no `matches`.
        #expect(try decode(#"{"booksCreated":1,"books":[],"errors":[]}"#).matches == [])
        // Numbers as strings, no kind, no authors, an empty ISBN; an unknown kind kept as itself.
        let lenient = try decode(
            #"{"matches":[{"row":"2","csvTitle":"Dun","matchedTitle":"Dune","isbn":""},{"row":3,"csvTitle":"X","matchedTitle":"Y","matchedBy":"series"}]}"#
        )
        #expect(
            lenient.matches == [
                ImportMatch(
                    row: 2,
                    csvTitle: "Dun",
                    matchedTitle: "Dune",
                    matchedAuthors: [],
                    isbn: nil,
                    matchedBy: .title
                ),
                ImportMatch(
                    row: 3,
                    csvTitle: "X",
                    matchedTitle: "Y",
                    matchedAuthors: [],
                    isbn: nil,
                    matchedBy: "series"
                ),
            ]
        )
        // A malformed list is none; the rest of the results stand.
        for body in [#"{"booksCreated":2,"matches":"nonsense"}"#, #"{"booksCreated":2,"matches":[{"row":[1]}]}"#] {
            let results = try decode(body)
            #expect(results.booksCreated == 2 && results.matches == [], "\(body)")
            // The same through the client's tolerant reading of an envelope.
            let envelope =
                #"{"success":true,"data":"# + body + #","metadata":{"timestamp":"2026-01-05T10:00:00.000Z"}}"#
            guard
                case .success(let read, _) = ResponseDecoding.decode(
                    ImportResults.self,
                    from: Data(envelope.utf8),
                    status: 200
                )
            else {
                Issue.record("\(envelope) did not decode")
                continue
            }
            #expect(read.booksCreated == 2 && read.matches == [], "\(envelope)")
        }
    }
}
