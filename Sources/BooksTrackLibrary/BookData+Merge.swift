/// How a save treats the data of a book that is already stored.
package enum MergePolicy: Sendable, Hashable {
    /// Fill only what the library lacks (search, similar, recommendations, import rows).
    case fillGaps
    /// New values replace stored ones (enrichment); title and authors are still only filled.
    case refresh
}

extension BookData {
    /// `self` (stored) merged with `incoming` under `policy`. Identity (ISBN, key) is left to the caller.
    func merged(with incoming: BookData, policy: MergePolicy) -> BookData {
        func pick<T>(_ stored: T?, _ new: T?) -> T? {
            switch policy {
            case .fillGaps: return stored ?? new
            case .refresh: return new ?? stored
            }
        }
        var out = self
        if out.title.isEmpty { out.title = incoming.title }
        if out.authors.isEmpty { out.authors = incoming.authors }
        out.isbn10 = out.isbn10 ?? incoming.isbn10
        out.asin = out.asin ?? incoming.asin
        out.goodreadsBookID = out.goodreadsBookID ?? incoming.goodreadsBookID
        out.series = out.series ?? incoming.series
        out.seriesNumber = out.seriesNumber ?? incoming.seriesNumber
        out.publisher = pick(publisher, incoming.publisher)
        out.publishedDate = pick(publishedDate, incoming.publishedDate)
        out.publishedYear = pick(publishedYear, incoming.publishedYear)
        out.originalYear = out.originalYear ?? incoming.originalYear
        out.pageCount = pick(pageCount, incoming.pageCount)
        out.format = pick(format, incoming.format)
        out.language = pick(language, incoming.language)
        out.coverURL = pick(coverURL, incoming.coverURL)
        out.description = pick(description, incoming.description)
        out.subjects =
            pick(subjects.isEmpty ? nil : subjects, incoming.subjects.isEmpty ? nil : incoming.subjects) ?? []
        out.averageRating = pick(averageRating, incoming.averageRating)
        return out
    }
}

extension ReadingFields {
    /// The stored fields with an import row's values laid over them: the row's shelf always; its
    /// other fields where the file has a value (an empty cell keeps what the library has).
    func carrying(_ row: ReadingFields) -> ReadingFields {
        var out = self
        out.shelf = row.shelf
        if !row.tags.isEmpty { out.tags = row.tags }
        out.rating = row.rating ?? rating
        out.dateRead = row.dateRead ?? dateRead
        out.dateAdded = row.dateAdded ?? dateAdded
        out.readCount = row.readCount ?? readCount
        out.review = row.review ?? review
        out.privateNotes = row.privateNotes ?? privateNotes
        out.ownedCopies = row.ownedCopies ?? ownedCopies
        return out
    }
}
