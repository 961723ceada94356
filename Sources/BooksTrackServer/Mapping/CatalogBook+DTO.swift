import BooksTrackCatalog
import BooksTrackContract

/// The provider name the local server reports.
let localProvider = "local-catalog"

extension CatalogBook {
    /// The work as the v1 search routes send it; its subject tags are the book's strongest reader
    /// shelves from goodbooks-10k (`CatalogBook.shelves`).
    var workDTO: WorkDTO {
        WorkDTO(
            title: title,
            subjectTags: shelves,
            goodreadsWorkIDs: [String(goodreadsWorkID)],
            amazonASINs: [],
            librarythingIDs: [],
            googleBooksVolumeIDs: [],
            isbndbQuality: 0,
            reviewStatus: .verified,
            originalLanguage: language,
            firstPublicationYear: year,
            coverImageURL: imageURL,
            primaryProvider: localProvider,
            contributors: authors,
            goodreadsID: String(goodreadsBookID)
        )
    }

    /// The catalog's one edition of the work; the format is unknown ("Other").
    var editionDTO: EditionDTO {
        EditionDTO(
            isbns: [isbn13, isbn10].compactMap { $0 },
            format: .other,
            isbndbQuality: 0,
            isbn: isbn13 ?? isbn10,
            title: title,
            publicationDate: publicationYearString,
            coverImageURL: imageURL,
            language: language
        )
    }

    /// `YYYY` for years 1…9999 (the contract's date form); nil for BCE or unknown years.
    var publicationYearString: String? {
        guard let year, (1...9999).contains(year) else { return nil }
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The ISBN to show for this book (ISBN-13 preferred).
    var displayISBN: String? { isbn13 ?? isbn10 }
}

extension BookSearchResponse {
    /// Works, editions and authors pairwise: `authors[i]` is the primary (first-listed) author of
    /// `works[i]`, repeated when works share it, so a client can attribute every name; the full list
    /// of a work's authors is in its `contributors`.
    init(books: [CatalogBook], totalResults: Int?, correctedQuery: String? = nil) {
        let authors = books.map { AuthorDTO(name: $0.authors.first ?? "Unknown", gender: .unknown) }
        self.init(
            works: books.map(\.workDTO),
            editions: books.map(\.editionDTO),
            authors: authors,
            resultCount: books.count,
            totalResults: totalResults,
            correctedQuery: correctedQuery
        )
    }
}

extension SearchHit {
    init(book: CatalogBook, score: Double) {
        self.init(
            isbn: book.displayISBN,
            title: book.title,
            authors: book.authors,
            coverUrl: book.imageURL,
            publishedYear: book.year,
            score: min(1, max(0, score))
        )
    }
}
