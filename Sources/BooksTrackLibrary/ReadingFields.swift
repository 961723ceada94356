import Foundation

/// The user's own fields of one book: never changed by data-only saves (search, enrichment), carried
/// in by imports (a file's empty cell leaves the library's value alone), and set by the user.
package struct ReadingFields: Hashable, Sendable {
    package var shelf: Shelf
    /// Non-exclusive shelves (Goodreads) and tags (StoryGraph), normalised like shelf names, in order.
    package var tags: [String]
    /// 0.25…5 in quarter stars (StoryGraph allows 4.5; Goodreads writes whole stars); nil = unrated.
    package var rating: Double?
    package var dateRead: BookDate?
    /// Nil on input means "today" for a new book (and "keep" for a stored one).
    package var dateAdded: BookDate?
    package var readCount: Int?
    package var review: String?
    package var privateNotes: String?
    package var ownedCopies: Int?

    package init(
        shelf: Shelf = .toRead,
        tags: [String] = [],
        rating: Double? = nil,
        dateRead: BookDate? = nil,
        dateAdded: BookDate? = nil,
        readCount: Int? = nil,
        review: String? = nil,
        privateNotes: String? = nil,
        ownedCopies: Int? = nil
    ) {
        self.shelf = shelf
        self.tags = ReadingFields.normalizedTags(tags)
        self.rating = rating.flatMap { ReadingFields.isValidRating($0) ? $0 : nil }
        self.dateRead = dateRead
        self.dateAdded = dateAdded
        self.readCount = readCount
        self.review = review.nonEmpty
        self.privateNotes = privateNotes.nonEmpty
        self.ownedCopies = ownedCopies
    }

    /// True for 0.25…5 in quarter steps.
    package static func isValidRating(_ r: Double) -> Bool {
        r > 0 && r <= 5 && (r * 4).rounded() == r * 4
    }

    /// Shelf-normalised, de-duplicated, order kept; empty names dropped.
    package static func normalizedTags(_ tags: [String]) -> [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for tag in tags {
            let trimmed = tag.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            let name = Shelf(rawValue: trimmed).rawValue
            if seen.insert(name).inserted { out.append(name) }
        }
        return out
    }
}

/// Where a book came from. Stored per book (a book keeps every distinct origin).
package struct Provenance: Hashable, Sendable, CustomStringConvertible {
    package enum Source: String, Sendable, Hashable, CaseIterable {
        case importJob = "import-job"
        case importFile = "import-file"
        case search, similar, semantic, recommendation,
            enrichment, manual, scan
        /// The title an import's row had when the server matched it to this book by title (the
        /// library keeps the matched book's title; an older bts skips sources it does not know).
        case csvTitle = "csv-title"
    }

    package var source: Source
    /// The job id, file name, query, source ISBN or provider; empty when there is none.
    package var detail: String

    package init(_ source: Source, _ detail: String = "") {
        self.source = source
        self.detail = detail
    }

    package static func importJob(_ id: String) -> Provenance { Provenance(.importJob, id) }
    package static func importFile(_ name: String) -> Provenance { Provenance(.importFile, name) }
    package static func search(_ query: String = "") -> Provenance { Provenance(.search, query) }
    package static func similar(to isbn: String = "") -> Provenance { Provenance(.similar, isbn) }
    package static func semantic(_ query: String = "") -> Provenance { Provenance(.semantic, query) }
    package static func recommendation(_ week: String = "") -> Provenance { Provenance(.recommendation, week) }
    package static func enrichment(_ provider: String = "") -> Provenance { Provenance(.enrichment, provider) }
    package static let manual = Provenance(.manual)
    /// A bookshelf scan's job.
    package static func scan(_ job: String) -> Provenance { Provenance(.scan, job) }
    /// An import row's own title, for the book it was matched to by title.
    package static func csvTitle(_ title: String) -> Provenance { Provenance(.csvTitle, title) }

    package var description: String { detail.isEmpty ? source.rawValue : "\(source.rawValue) \(detail)" }
}

/// One row of an export file: the book's data and the user's fields.
package struct ImportedBook: Hashable, Sendable {
    /// 1-based data row in the file.
    package var row: Int
    package var data: BookData
    package var reading: ReadingFields
    /// Where the row came from besides the import itself (`csv-title`: its title before a server
    /// matched it to another).
    package var sources: [Provenance]

    package init(row: Int, data: BookData, reading: ReadingFields, sources: [Provenance] = []) {
        self.row = row
        self.data = data
        self.reading = reading
        self.sources = sources
    }
}

/// What a save did, in library terms.
package struct SaveSummary: Hashable, Sendable, CustomStringConvertible {
    /// Books that were not in the library before.
    package var created = 0
    /// Books that were there and changed (data or, for imports, the user's fields).
    package var updated = 0
    /// Books that were there and did not change.
    package var alreadyThere = 0
    /// Inputs that could not be saved (no title and no ISBN).
    package var skipped = 0

    package init(created: Int = 0, updated: Int = 0, alreadyThere: Int = 0, skipped: Int = 0) {
        self.created = created
        self.updated = updated
        self.alreadyThere = alreadyThere
        self.skipped = skipped
    }

    package var description: String {
        "\(created) created, \(updated) updated, \(alreadyThere) already there"
            + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}

/// A book in the library: its edition data, work, authors and the user's fields.
package struct LibraryBook: Hashable, Sendable, Identifiable {
    /// Stable library id of the edition.
    package var id: Int64
    package var workID: Int64
    /// `isbn:<ISBN-13>` or `title:<title>|<author>`.
    package var key: String
    package var data: BookData
    package var reading: ReadingFields
    package var provenance: [Provenance]
    /// How many editions of the same work are in the library (1 = only this one).
    package var editionsOfWork: Int

    package var title: String { data.title }
    package var authors: [String] { data.authors }
    package var isbn13: String? { data.isbn13 }
}
