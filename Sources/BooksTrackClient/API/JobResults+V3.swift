import BooksTrackContract
import Foundation

// The v3 bodies the client reads, apart from the calls (BooksTrackAPI+V3.swift): pure decoding over
// the contract types, so that Fuzz/v3 compiles them without the transport.

/// `data` of `GET /v3/books/search`: `{results: [Book], totalCount, query}` — flat books (authors as
/// strings or objects), no score (index.ts @ e40ae5d). A result that does not decode is left out.
struct V3SearchPage: Decodable, Sendable {
    var books: [Book]
    var totalCount: Int?
    /// What the server searched instead when `q` matched nothing (bts's own server; production omits it).
    var correctedQuery: String?

    enum CodingKeys: String, CodingKey { case results, totalCount, correctedQuery }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // A page holds at most the route's largest limit: results past it (a server sending 100,000)
        // are never decoded. A result that is not a book is skipped, the rest kept.
        var books: [Book] = []
        if c.contains(.results), try !c.decodeNil(forKey: .results) {
            var list = try c.nestedUnkeyedContainer(forKey: .results)
            while !list.isAtEnd, books.count < V3Limits.searchPage.upperBound,
                let element = try? list.decode(Lenient<Book>.self)
            {
                if let book = element.value { books.append(book) }
            }
        }
        self.books = books
        totalCount = try? c.decodeIfPresent(Int.self, forKey: .totalCount)
        correctedQuery = CorrectedQuery.reading((try? c.decodeIfPresent(String.self, forKey: .correctedQuery)) ?? nil)
    }

    /// The page as search results.
    var results: SearchResults {
        SearchResults(items: books.map(SearchResultItem.init), totalResults: totalCount, correctedQuery: correctedQuery)
    }
}

/// One element of a list that is kept when it decodes as `Value` and skipped (nil) when it does not;
/// decoding it always succeeds, so the list moves on.
struct Lenient<Value: Decodable>: Decodable {
    var value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}

/// The body of `POST /v3/books/enrich`.
struct V3EnrichRequest: Encodable {
    var isbns: [String]
    var async: Bool?
}

/// `data` of a v3 results route: `{jobId, status, results}`.
struct V3JobResultsBody: Decodable, Sendable {
    var results: JSONValue

    enum CodingKeys: String, CodingKey { case results }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        results = try c.decodeIfPresent(JSONValue.self, forKey: .results) ?? .array([])
    }
}

extension JobResults {
    /// A v3 job's results (a results route's `results`, or a `completed` event's): the books it found,
    /// as an array, or inside `{books}` / `{enrichedBooks}` (the stored object, jobs/common.ts).
    init(v3 value: JSONValue, pipeline: Pipeline, requested: [String]? = nil) {
        // An import's stored object (`{booksCreated, …, errors, books}`, imports.ts @ 075ee29) as it is.
        if pipeline == .csvImport, value.objectValue != nil, value["booksCreated"] != nil || value["errors"] != nil,
            let summary = value.decoded(as: ImportResults.self)
        {
            self = .csvImport(summary)
            return
        }
        let list = value.arrayValue ?? value["books"]?.arrayValue ?? value["enrichedBooks"]?.arrayValue ?? []
        if pipeline == .bookshelfScan {
            self = .scan(list.compactMap(JobResults.detected))
        } else if pipeline == .batchEnrichment {
            var rows = list.compactMap { $0.decoded(as: EnrichedBook.self) }.map(BatchItemResult.init(v3:))
            // The ISBNs asked for that the whole list lacks were not found.
            let found = Set(rows.compactMap { $0.isbn.flatMap(ISBN.init)?.isbn13 })
            for isbn in requested ?? [] where !found.contains(ISBN(isbn)?.isbn13 ?? isbn) {
                rows.append(
                    BatchItemResult(title: isbn, isbn: isbn, success: false, error: "Not found by any provider")
                )
            }
            self = .batch(rows)
        } else {
            let books = list.compactMap { $0.decoded(as: Book.self) }
            self = .csvImport(
                ImportResults(
                    booksCreated: books.count,
                    booksUpdated: 0,
                    duplicatesSkipped: 0,
                    enrichmentSucceeded: books.count,
                    enrichmentFailed: 0,
                    books: books
                )
            )
        }
    }

    /// No book in it.
    var isEmpty: Bool {
        switch self {
        case .batch(let rows): return rows.isEmpty
        case .csvImport(let summary):
            return summary.books.isEmpty && summary.booksCreated == 0 && summary.booksUpdated == 0
        case .scan(let books): return books.isEmpty
        }
    }

    /// One detected book of a scan's results (nil when it does not decode).
    static func detected(_ value: JSONValue) -> DetectedBook? {
        value.decoded(as: DetectedBook.self)
    }
}

extension BatchItemResult {
    /// A book a v3 enrichment job found, as a batch row.
    init(v3 book: EnrichedBook) {
        let work = WorkDTO(
            title: book.title,
            subjectTags: book.categories ?? [],
            description: book.description,
            coverImageURL: book.coverUrl,
            primaryProvider: book.provider.isEmpty ? nil : book.provider
        )
        let edition = EditionDTO(
            isbns: book.isbn.isEmpty ? [] : [book.isbn],
            isbn: book.isbn.isEmpty ? nil : book.isbn,
            title: book.title,
            publisher: book.publisher,
            publicationDate: book.publishedDate,
            pageCount: book.pageCount,
            coverImageURL: book.coverUrl
        )
        self.init(
            title: book.title,
            author: book.authors.first,
            isbn: book.isbn,
            success: true,
            enriched: EnrichedRecord(work: work, edition: edition, authors: book.authors.map { AuthorDTO(name: $0) })
        )
    }
}
