import BooksTrackContract

/// The API's result types as library data (what each one knows; the rest stays nil).
extension BookData {
    /// A normalised search result (`search`, v1 or v2 shapes).
    package init(_ item: SearchResultItem) {
        self.init(
            title: item.title,
            authors: item.authors,
            isbn: item.isbn ?? item.isbns.first,
            publisher: item.publisher,
            publishedDate: item.publishedDate,
            publishedYear: item.year,
            pageCount: item.pageCount,
            format: item.format?.rawValue,
            language: item.language,
            coverURL: item.coverURL,
            description: item.description,
            subjects: item.categories
        )
    }

    /// A v2 search hit (text or semantic mode).
    package init(_ hit: SearchHit) {
        self.init(
            title: hit.title,
            authors: hit.authors,
            isbn: hit.isbn,
            publishedYear: hit.publishedYear,
            coverURL: hit.coverUrl
        )
    }

    /// A similar book.
    package init(_ item: SimilarResults.Item) {
        self.init(title: item.title ?? "", authors: item.authors, isbn: item.isbn, coverURL: item.coverURL)
    }

    /// A weekly recommendation.
    package init(_ item: WeeklyRecommendations.Item) {
        self.init(title: item.title, authors: item.authors, isbn: item.isbn, coverURL: item.coverURL)
    }

    /// A book of an import job's results (or of a legacy search).
    package init(_ book: Book) {
        self.init(
            title: book.title,
            authors: book.authors,
            isbn: book.isbn13 ?? book.isbn,
            publisher: book.publisher,
            publishedDate: book.publishedDate,
            pageCount: book.pageCount,
            language: book.language,
            coverURL: book.coverUrl,
            description: book.description,
            subjects: book.categories ?? []
        )
    }

    /// A single-ISBN enrichment.
    package init(_ book: EnrichedBook) {
        self.init(
            title: book.title,
            authors: book.authors,
            isbn: book.isbn,
            publisher: book.publisher,
            publishedDate: book.publishedDate,
            pageCount: book.pageCount,
            coverURL: book.coverUrl,
            description: book.description,
            subjects: book.categories ?? []
        )
    }

    /// A batch enrichment record (work, edition, authors).
    package init(_ record: EnrichedRecord) {
        let e = record.edition
        self.init(
            title: e.title ?? record.work.title,
            authors: record.authors.map(\.name),
            isbn: e.isbn ?? e.isbns.first(where: { ISBN($0)?.kind == .isbn13 }) ?? e.isbns.first,
            asin: e.amazonASINs.first,
            publisher: e.publisher,
            publishedDate: e.publicationDate,
            originalYear: record.work.firstPublicationYear,
            pageCount: e.pageCount,
            format: e.format == .other ? nil : e.format.rawValue,
            language: e.language ?? record.work.originalLanguage,
            coverURL: e.coverImageURL ?? record.work.coverImageURL,
            description: record.work.description ?? e.editionDescription,
            subjects: record.work.subjectTags
        )
    }

    /// A book a bookshelf scan found (nil when it has neither a title nor an ISBN).
    package init?(_ detected: DetectedBook) {
        let title = detected.title ?? ""
        guard !title.isEmpty || detected.isbn != nil else { return nil }
        self.init(
            title: title,
            authors: detected.author.map { [$0] } ?? [],
            isbn: detected.isbn,
            publisher: detected.publisher,
            publishedYear: detected.publicationYear,
            coverURL: detected.coverUrl
        )
    }

    /// A batch item's enriched record, when it succeeded.
    package init?(_ item: BatchItemResult) {
        guard item.success, let record = item.enriched else { return nil }
        self.init(record)
    }

    /// The books of a search response.
    package static func books(_ results: SearchResults) -> [BookData] { results.items.map(BookData.init) }
    /// The books of a similar-books response.
    package static func books(_ results: SimilarResults) -> [BookData] { results.items.map(BookData.init) }
    /// The books of a v2 (text or semantic) search response.
    package static func books(_ response: V2SearchResponse) -> [BookData] { response.results.map(BookData.init) }
    /// The picks of a weekly recommendations response.
    package static func books(_ recs: WeeklyRecommendations) -> [BookData] { recs.items.map(BookData.init) }
    /// The books of an import job's results.
    package static func books(_ results: ImportResults) -> [BookData] { results.books.map(BookData.init) }
    /// The successful records of a batch enrichment.
    package static func books(_ items: [BatchItemResult]) -> [BookData] { items.compactMap(BookData.init) }
}
