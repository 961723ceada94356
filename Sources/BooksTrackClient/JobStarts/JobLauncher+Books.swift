import BooksTrackContract
import Foundation

/// What a batch sends, decided without I/O: ISBNs checked and as ISBN-13, books in the form every
/// production version accepts, and the largest batch the client lets through.
extension JobLauncher {
    /// An ISBN parsed, or the `INVALID_ISBN` error naming it.
    package static func parsedISBN(_ raw: String) throws(BooksTrackError) -> ISBN {
        do { return try ISBN(parsing: raw) } catch {
            throw BooksTrackError(
                code: .invalidISBN,
                kind: .invalidInput,
                message: ErrorCode.invalidISBN.userMessage(),
                detail: "\(raw): \(error.message)"
            )
        }
    }

    /// Every ISBN as ISBN-13, in order, or the error for the first that is not one.
    package static func isbn13s(_ isbns: [String]) throws(BooksTrackError) -> [String] {
        var normalized: [String] = []
        for raw in isbns { normalized.append(try parsedISBN(raw).isbn13) }
        return normalized
    }

    /// The ISBN-13s of a v3 batch: v3 enriches by ISBN only (packages/schemas/src/enrich.ts), so a
    /// book without a valid ISBN refuses the whole batch, named.
    package static func v3ISBNs(_ books: [BatchBook]) throws(BooksTrackError) -> [String] {
        var isbns: [String] = []
        for book in books {
            guard let raw = book.isbn, let isbn = ISBN(raw) else {
                throw BooksTrackError.invalidInput(
                    "API v3 enriches books by ISBN only; '\(book.title)' has none.",
                    code: .invalidISBN
                )
            }
            isbns.append(isbn.isbn13)
        }
        return isbns
    }

    /// The most books the client sends in one batch. Production advertises `maxBatchSize: 50`
    /// (v2/capabilities.ts) while its handler takes 100: the advertised number never refuses less
    /// than the documented `JobLimits.maxBatchSize`; the server has the last word.
    package static func maxBatchItems(advertised: Int?) -> Int {
        max(advertised ?? JobLimits.maxBatchSize, JobLimits.maxBatchSize)
    }

    /// A book as every production version accepts it: some refuse a book without a non-empty title
    /// (batch-enrichment.ts, "Invalid title for book at index N"), so an ISBN-only book carries its
    /// ISBN as the title (the stand-in then matches by ISBN only).
    package static func titled(_ book: BatchBook) -> BatchBook {
        guard book.title.trimmingCharacters(in: .whitespaces).isEmpty, let isbn = book.isbn, !isbn.isEmpty else {
            return book
        }
        var titled = book
        titled.title = isbn
        return titled
    }

    /// A book's ISBN as ISBN-13 (an ISBN-10 ending in X is refused by every router's `^\d{10}(\d{3})?$`).
    package static func thirteen(_ book: BatchBook) -> BatchBook {
        guard let raw = book.isbn, let isbn = ISBN(raw) else { return book }
        var copy = book
        copy.isbn = isbn.isbn13
        if copy.title == raw { copy.title = isbn.isbn13 }
        return copy
    }
}
