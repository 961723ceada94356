import BooksTrackCatalog
import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationCompat
import Testing

@testable import BooksTrackServer

/// The hand-written JSON must say what the contract's encoder says for the same value: the same
/// tree (the encoder's key order is unspecified, so trees are compared), strings escaped and numbers
/// written exactly as the encoder writes them, for every field and every character a string can hold.
@Suite(.onWorkThreads) struct EncodedEnvelopeTests {
    static let awkward = [
        "", "plain", "quote \" and backslash \\", "slash / stays", "tab\tnew\nline\rfeed\u{0C}back\u{08}",
        "controls \u{00}\u{01}\u{1F}\u{7F}", "unicode é 書 🙂 \u{2028}", "\"\\\"",
    ]

    static let metadata: [ResponseMetadata] =
        awkward.map { ResponseMetadata(timestamp: $0) } + [
            ResponseMetadata(date: Date(timeIntervalSince1970: 1_795_000_000.123)),
            ResponseMetadata(timestamp: "t", processingTime: 0, provider: "local-catalog", cached: true, source: "s"),
            ResponseMetadata(timestamp: "t", processingTime: -3, cached: false, searchMode: .semantic),
            ResponseMetadata(timestamp: "t", provider: "p\"q", source: "a\nb", searchMode: .similar),
        ]

    /// The two texts as JSON trees (numbers compared as doubles).
    static func tree(_ text: String) throws -> JSONValue {
        try JSONCoding.decoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test(arguments: metadata)
    func metadataMatchesTheEncoder(_ metadata: ResponseMetadata) throws {
        var buffer = ByteBuffer()
        metadata.writeJSON(to: &buffer)
        let expected = try JSONCoding.encoder().encode(metadata)
        #expect(try Self.tree(String(buffer: buffer)) == Self.tree(String(decoding: expected, as: UTF8.self)))
    }

    /// Number text, where trees would hide a difference: the encoder's own text of a bare number.
    @Test func numbersAreWrittenAsTheEncoderWritesThem() throws {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [
            0, 1, -1, 0.5, 1e-7, 0.1 + 0.2, 123_456_789.25, 1e21, 1e22, .leastNonzeroMagnitude,
            .ulpOfOne, .greatestFiniteMagnitude, 0.999_999_999_999_999_9, -0.0,
        ]
        for _ in 0..<2000 { values.append(Double(Float.random(in: 0...1, using: &generator))) }
        for _ in 0..<500 { values.append(Double.random(in: -1e30...1e30, using: &generator)) }
        for value in values {
            let expected = try JSONCoding.encoder().encode(value)
            #expect(JSONText.number(value) == String(decoding: expected, as: UTF8.self), "\(value)")
        }
    }

    @Test(arguments: awkward)
    func stringsMatchTheEncoder(_ text: String) throws {
        var buffer = ByteBuffer()
        JSONText.writeString(text, to: &buffer)
        let expected = try JSONCoding.encoder().encode(text)
        #expect(String(buffer: buffer) == String(decoding: expected, as: UTF8.self))
    }

    @Test func envelopeAroundStoredBytesMatchesTheEncodedEnvelope() throws {
        let book = BookSearchResponse(
            works: [],
            editions: [],
            authors: [AuthorDTO(name: "A \"quoted\" / author")],
            resultCount: 0,
            totalResults: 7
        )
        let metadata = ResponseMetadata(timestamp: "2026-11-24T00:00:00.000Z", processingTime: 1, cached: true)
        let spliced = JSONResponse.envelopeBytes(try EncodedJSON(book), metadata: metadata)
        let encoded = try JSONCoding.encoder().encode(Envelope.success(book, metadata: metadata))
        #expect(try Self.tree(String(buffer: spliced)) == Self.tree(String(decoding: encoded, as: UTF8.self)))
    }

    /// The hand-written v1 writer (`/v1/search/*`) over real catalog results by title, author and
    /// ISBN, plus every optional present and absent and awkward strings, against the contract's encoder.
    @Test func v1ResponsesMatchTheEncoder() throws {
        let catalog = try SharedCatalog.get()
        var responses: [BookSearchResponse] = [.empty]
        for q in ["harry potter", "dune", "tolkien", "the", "zzzz-no-match"] {
            let page = try catalog.searchTitle(q, limit: 20)
            responses.append(BookSearchResponse(books: page.books, totalResults: page.total))
        }
        if let book = try catalog.book(isbn13: "9780439023481") {
            responses.append(BookSearchResponse(books: [book], totalResults: 1))
        }
        let links = WorkDTO.SearchLinks(googleBooks: "https://g/\"x\"", openLibrary: nil, amazon: "a\u{1}")
        for (index, text) in Self.awkward.enumerated() {
            var work = WorkDTO(title: text)
            work.subjectTags = [text, "b"]
            work.goodreadsWorkIDs = index % 2 == 0 ? [] : ["1", text]
            work.isbndbQuality = index * 7 - 3
            work.reviewStatus = ReviewStatus(rawValue: text)
            work.originalLanguage = index % 2 == 0 ? text : nil
            work.firstPublicationYear = index % 3 == 0 ? nil : -index
            work.description = index % 2 == 1 ? text : nil
            work.coverImageURL = "https://x/\(text)"
            work.synthetic = index % 3 == 0 ? nil : index % 3 == 1
            work.primaryProvider = text
            work.contributors = index % 2 == 0 ? nil : [text]
            work.openLibraryWorkID = text
            work.goodreadsID = index % 2 == 0 ? nil : text
            work.searchLinks = index % 2 == 0 ? links : (index % 3 == 0 ? WorkDTO.SearchLinks() : nil)
            work.authors = index % 2 == 0 ? [text] : nil
            let edition = EditionDTO(
                isbns: [text],
                format: EditionFormat(rawValue: text),
                amazonASINs: [text],
                isbndbQuality: index,
                isbn: index % 2 == 0 ? text : nil,
                title: text,
                publisher: text,
                publicationDate: text,
                pageCount: index,
                coverImageURL: text,
                editionTitle: text,
                editionDescription: text,
                language: text,
                authors: [text]
            )
            let author = AuthorDTO(
                name: text,
                gender: AuthorGender(rawValue: text),
                culturalRegion: text,
                nationality: nil,
                birthYear: index % 2 == 0 ? nil : 1900 + index,
                deathYear: -index,
                bookCount: index
            )
            responses.append(
                BookSearchResponse(
                    works: [work, WorkDTO(title: "")],
                    editions: [edition, EditionDTO()],
                    authors: [author],
                    resultCount: index,
                    totalResults: index % 2 == 0 ? nil : index
                )
            )
        }
        for response in responses {
            let written = response.encodedJSON()
            let expected = try JSONCoding.encoder().encode(response)
            #expect(
                try Self.tree(String(buffer: written.bytes)) == Self.tree(String(decoding: expected, as: UTF8.self))
            )
            #expect(
                try JSONCoding.decoder().decode(BookSearchResponse.self, from: Data(buffer: written.bytes)) == response
            )
        }
    }

    /// The hand-written v2 writer over real catalog results (semantic, hybrid, text), plus awkward
    /// strings and scores, against the contract's encoder.
    @Test func v2ResponsesMatchTheEncoder() throws {
        let catalog = try SharedCatalog.get()
        var responses: [V2SearchResponse] = []
        for (index, q) in ["wizard school", "harry potter", "dune", "tolkien", "the", "zzzz-no-match"].enumerated() {
            let hits =
                try catalog.semantic(q, limit: 20, offset: 0).map { SearchHit(book: $0.book, score: $0.score) }
                + catalog.hybrid(q, limit: 10, offset: 0).map { SearchHit(book: $0.book, score: $0.score) }
            responses.append(
                V2SearchResponse(
                    query: .init(q: q, mode: .semantic, limit: 20, offset: index),
                    results: hits,
                    totalCount: hits.count
                )
            )
        }
        let scores: [Double] = [
            0, 1, 0.5, 1e-7, 0.1 + 0.2, 123_456_789.25, 1e21, .leastNonzeroMagnitude, .ulpOfOne,
            0.999_999_999_999_999_9,
        ]
        responses.append(
            V2SearchResponse(
                query: .init(q: "q \"\\ \n", mode: .hybrid, limit: 1, offset: 0),
                results: Self.awkward.enumerated().map { index, text in
                    SearchHit(
                        isbn: index % 2 == 0 ? text : nil,
                        title: text,
                        authors: [text, "b"],
                        coverUrl: index % 3 == 0 ? nil : "https://x/\(text)",
                        publishedYear: index % 2 == 0 ? -index : nil,
                        score: scores[index % scores.count]
                    )
                } + scores.map { SearchHit(title: "t", authors: [], score: $0) }
            )
        )
        for response in responses {
            let written = try #require(response.encodedJSON())
            let expected = try JSONCoding.encoder().encode(response)
            #expect(
                try Self.tree(String(buffer: written.bytes)) == Self.tree(String(decoding: expected, as: UTF8.self))
            )
            // And it decodes back to the same response.
            #expect(
                try JSONCoding.decoder().decode(V2SearchResponse.self, from: Data(buffer: written.bytes)) == response
            )
        }
        let nan = V2SearchResponse(
            query: .init(q: "q", mode: .text, limit: 1),
            results: [SearchHit(title: "t", authors: [], score: .nan)]
        )
        #expect(nan.encodedJSON() == nil)
    }
}
