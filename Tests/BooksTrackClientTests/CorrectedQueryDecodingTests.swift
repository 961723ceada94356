import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackClient

/// The client reads a search answer's `correctedQuery` from every search shape, through both of
/// `ResponseDecoding`'s paths (the canonical envelope and the tolerant one); older servers omit it,
/// and a blank or malformed one is no correction and never fails the answer.
@Suite struct CorrectedQueryDecodingTests {
    static func decode<T: Decodable & Sendable>(_ type: T.Type, _ text: String) -> T? {
        ResponseDecoding.decode(type, from: Data(text.utf8), status: 200).value
    }

    static let metadata = #""metadata":{"timestamp":"2026-11-28T00:00:00Z"}"#
    static let work =
        #"{"title":"The Hobbit","subjectTags":[],"goodreadsWorkIDs":[],"amazonASINs":[],"librarythingIDs":[],"googleBooksVolumeIDs":[],"isbndbQuality":0,"reviewStatus":"verified","synthetic":false}"#

    @Test func v1AnswersCarryIt() throws {
        let data =
            #"{"works":[\#(Self.work)],"editions":[],"authors":[{"name":"J.R.R. Tolkien","gender":"Unknown"}],"resultCount":1,"totalResults":1,"correctedQuery":"tolkien"}"#
        // The canonical envelope (the fast path) and a bare body (the tolerant path).
        let enveloped = try #require(
            Self.decode(SearchResults.self, #"{"success":true,"data":\#(data),\#(Self.metadata)}"#)
        )
        #expect(enveloped.correctedQuery == "tolkien")
        #expect(enveloped.items.first?.title == "The Hobbit")
        #expect(Self.decode(SearchResults.self, data)?.correctedQuery == "tolkien")
        #expect(Self.decode(BookSearchResponse.self, data)?.correctedQuery == "tolkien")
    }

    @Test func olderServersAndOddValuesGiveNone() throws {
        let plain = #"{"works":[\#(Self.work)],"editions":[],"authors":[],"resultCount":1}"#
        let old = try #require(Self.decode(SearchResults.self, #"{"success":true,"data":\#(plain),\#(Self.metadata)}"#))
        #expect(old.correctedQuery == nil && old.items.count == 1)
        for odd in [#""""#, #""  ""#, "null", "42", "[\"x\"]", "{}"] {
            let body = #"{"works":[\#(Self.work)],"editions":[],"authors":[],"resultCount":1,"correctedQuery":\#(odd)}"#
            let read = Self.decode(SearchResults.self, #"{"success":true,"data":\#(body),\#(Self.metadata)}"#)
            #expect(read?.items.count == 1, "\(odd)")
            #expect(read?.correctedQuery == nil, "\(odd)")
        }
    }

    @Test func v2AndV3AnswersCarryIt() throws {
        let v2 =
            #"{"query":{"q":"tolkein","mode":"text","limit":5,"offset":0},"results":[{"title":"The Hobbit","authors":["J.R.R. Tolkien"],"score":1}],"totalCount":1,"correctedQuery":"tolkien"}"#
        let v2Results = try #require(
            Self.decode(SearchResults.self, #"{"success":true,"data":\#(v2),\#(Self.metadata)}"#)
        )
        #expect(v2Results.correctedQuery == "tolkien" && v2Results.items.count == 1)
        let v2Response = try #require(Self.decode(V2SearchResponse.self, v2))
        #expect(v2Response.correctedQuery == "tolkien")
        // It survives the contract's own encoder (what the stand-in's encoder tests compare with).
        let reencoded = String(decoding: try JSONCoding.encoder(sortedKeys: true).encode(v2Response), as: UTF8.self)
        #expect(reencoded.contains(#""correctedQuery":"tolkien""#))

        let v3 =
            #"{"results":[{"isbn":"9780547928227","title":"The Hobbit","authors":["J.R.R. Tolkien"]}],"totalCount":1,"query":{"q":"hunger gmes"},"correctedQuery":"hunger games"}"#
        let page = try #require(Self.decode(V3SearchPage.self, #"{"success":true,"data":\#(v3),\#(Self.metadata)}"#))
        #expect(page.results.correctedQuery == "hunger games")
        #expect(page.results.items.first?.title == "The Hobbit")
        let production = #"{"results":[],"totalCount":0,"query":{"q":"hunger gmes"}}"#
        #expect(
            Self.decode(V3SearchPage.self, #"{"success":true,"data":\#(production),\#(Self.metadata)}"#)?.results
                .correctedQuery == nil
        )
    }
}
