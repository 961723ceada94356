import BooksTrackCatalog
import BooksTrackContract
import Foundation

extension BatchItemResult {
    /// Enriches one batch item from the catalog (ISBN first, then title + author).
    static func evaluate(_ item: BatchBook, catalog: any CatalogQuerying) -> BatchItemResult {
        let title = item.title.trimmingCharacters(in: .whitespaces)
        let isbn = item.isbn?.trimmingCharacters(in: .whitespaces)
        let outcome = CatalogMatcher.match(
            isbns: isbn.map { [$0] } ?? [],
            title: title.isEmpty ? nil : title,
            author: item.author,
            catalog: catalog
        )
        let shownTitle = title.isEmpty ? (isbn ?? "") : item.title
        switch outcome {
        case .matched(let book, _):
            return BatchItemResult(
                title: title.isEmpty ? book.title : item.title,
                author: item.author ?? book.authors.first,
                isbn: isbn ?? book.isbn13 ?? book.isbn10,
                success: true,
                enriched: enrichedRecord(book)
            )
        case .unmatched(let reason):
            return BatchItemResult(title: shownTitle, author: item.author, isbn: isbn, success: false, error: reason)
        }
    }

    static func enrichedRecord(_ book: CatalogBook) -> EnrichedRecord {
        EnrichedRecord(
            work: book.workDTO,
            edition: book.editionDTO,
            authors: book.authors.map { AuthorDTO(name: $0, gender: .unknown) }
        )
    }
}
