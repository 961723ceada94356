/// One search result, normalized from any of the search shapes the client accepts.
package struct SearchResultItem: Codable, Sendable, Hashable {
    package var title: String
    package var authors: [String]
    /// The preferred ISBN (ISBN-13 when known).
    package var isbn: String?
    /// Every ISBN known for the result.
    package var isbns: [String]
    package var publisher: String?
    /// `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.
    package var publishedDate: String?
    package var year: Int?
    package var pageCount: Int?
    package var coverURL: String?
    package var description: String?
    package var format: EditionFormat?
    package var language: String?
    package var categories: [String]
    /// Relevance or similarity in 0…1 (v2 search, similar), when the server gave one.
    package var score: Double?

    package init(
        title: String,
        authors: [String] = [],
        isbn: String? = nil,
        isbns: [String] = [],
        publisher: String? = nil,
        publishedDate: String? = nil,
        year: Int? = nil,
        pageCount: Int? = nil,
        coverURL: String? = nil,
        description: String? = nil,
        format: EditionFormat? = nil,
        language: String? = nil,
        categories: [String] = [],
        score: Double? = nil
    ) {
        self.title = title
        self.authors = authors
        self.isbn = isbn
        self.isbns = isbns
        self.publisher = publisher
        self.publishedDate = publishedDate
        self.year = year ?? publishedDate.flatMap { Int($0.prefix(4)) }
        self.pageCount = pageCount
        self.coverURL = coverURL
        self.description = description
        self.format = format
        self.language = language
        self.categories = categories
        self.score = score
    }
}

/// Search results in one normalized list, decodable from `BookSearchResponse`, the v3.x
/// `{books, totalResults, query}`, a bare `[Book]` or a single `Book`.
///
/// Use it as the target of `ResponseDecoding.decode(SearchResults.self, ...)` for `/v1/search/*`.
package struct SearchResults: Decodable, Sendable, Hashable {
    package var items: [SearchResultItem]
    /// The total the server reported, when it did.
    package var totalResults: Int?
    /// What the server searched instead when the query matched nothing (`correctedQuery`), when it said so.
    package var correctedQuery: String?

    package init(items: [SearchResultItem], totalResults: Int? = nil, correctedQuery: String? = nil) {
        self.items = items
        self.totalResults = totalResults
        self.correctedQuery = correctedQuery
    }

    package init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        // Which shape: the object's keys alone decide (reading the whole value as a JSON tree
        // first, or listing every key, would cost far more than asking for a few keys).
        // Only what is not an object can be a bare list.
        // The tree decoder's keys are read from its tree (no keyed container in a box).
        let has: (String) -> Bool
        if let tree = decoder as? JSONTreeDecoder {
            let isObject = tree.tree.kind(tree.node) == .object
            if !isObject, let list = try? single.decode([Book].self) {
                self.init(list)
                return
            }
            has = { isObject && tree.tree.member(in: tree.node, named: $0, from: tree.node + 1) != nil }
        } else {
            let object = try? decoder.container(keyedBy: ShapeKey.self)
            if object == nil, let list = try? single.decode([Book].self) {
                self.init(list)
                return
            }
            has = { object?.contains(ShapeKey(stringValue: $0)) ?? false }
        }
        if has("works") || has("editions") {
            self.init(try single.decode(BookSearchResponse.self))
        } else if has("books") {
            self.init(try single.decode(LegacyBookSearchResponse.self))
        } else if has("title") {
            self.init([try single.decode(Book.self)])
        } else if has("results") {
            self.init(try single.decode(V2SearchResponse.self))
        } else {
            // Report the canonical shape's error (with its coding path).
            self.init(try single.decode(BookSearchResponse.self))
        }
    }

    /// Any key of an object (to tell the shapes apart by their keys).
    private struct ShapeKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Normalizes the documented work/edition/author shape.
    package init(_ response: BookSearchResponse) {
        var items: [SearchResultItem] = []
        for (i, work) in response.works.enumerated() {
            let edition = i < response.editions.count ? response.editions[i] : nil
            let names: [String]
            if let own = work.authors ?? edition?.authors {
                // The work (or its edition) names its own authors: nothing to guess.
                names = own
            } else if response.authors.count == response.works.count {
                let primary = response.authors[i].name
                // The stand-in lists a work's authors in `contributors` (primary first); production's
                // contributors are data providers, which never contain the author's name.
                if let people = work.contributors, people.first == primary {
                    names = people
                } else {
                    names = [primary]
                }
            } else if response.works.count == 1 {
                names = response.authors.map(\.name)
            } else if response.authors.count == 1 {
                // Production's top-level list holds each author once (response-transformer.ts,
                // extractUniqueAuthors): one name for several works means they share that author.
                names = [response.authors[0].name]
            } else {
                names = []
            }
            let isbns = edition?.isbns ?? []
            let preferred = edition?.isbn ?? isbns.first(where: { $0.count == 13 }) ?? isbns.first
            items.append(
                SearchResultItem(
                    title: edition?.title ?? work.title,
                    authors: names,
                    isbn: preferred,
                    isbns: isbns.isEmpty ? (preferred.map { [$0] } ?? []) : isbns,
                    publisher: edition?.publisher,
                    publishedDate: edition?.publicationDate,
                    year: work.firstPublicationYear,
                    pageCount: edition?.pageCount,
                    coverURL: edition?.coverImageURL ?? work.coverImageURL,
                    description: work.description ?? edition?.editionDescription,
                    format: edition?.format,
                    language: edition?.language ?? work.originalLanguage,
                    categories: work.subjectTags
                )
            )
        }
        self.init(
            items: items,
            totalResults: response.totalResults ?? response.resultCount,
            correctedQuery: response.correctedQuery
        )
    }

    /// Normalizes the v3.x shape.
    package init(_ response: LegacyBookSearchResponse) {
        self.init(items: response.books.map(SearchResultItem.init), totalResults: response.totalResults)
    }

    /// Normalizes a list of flat books.
    package init(_ books: [Book]) {
        self.init(items: books.map(SearchResultItem.init), totalResults: books.count)
    }
}

extension SearchResultItem {
    /// A flat book as a result.
    package init(_ book: Book) {
        var isbns = [book.isbn]
        if let i13 = book.isbn13, i13 != book.isbn { isbns.append(i13) }
        self.init(
            title: book.title,
            authors: book.authors,
            isbn: book.isbn13 ?? book.isbn,
            isbns: isbns,
            publisher: book.publisher,
            publishedDate: book.publishedDate,
            pageCount: book.pageCount,
            coverURL: book.coverUrl,
            description: book.description,
            language: book.language,
            categories: book.categories ?? []
        )
    }
}
