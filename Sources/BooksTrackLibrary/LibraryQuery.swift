/// Which books to list. All conditions must hold; nil means "any".
package struct LibraryFilter: Hashable, Sendable {
    package enum RatingFilter: Hashable, Sendable {
        case atLeast(Double)
        case exactly(Double)
        case unrated
    }

    package var shelf: Shelf?
    /// Matches any author of the book whose name contains these letters (case, accents and
    /// punctuation ignored: "rowling" finds "J.K. Rowling").
    package var author: String?
    package var rating: RatingFilter?
    /// The year of "date read".
    package var yearRead: Int?
    package var tag: String?
    /// Full-text query over title, authors, series, review/notes and tags (every word must match;
    /// the last word as a prefix). With text, the default order is best match first.
    package var text: String?

    package init(
        shelf: Shelf? = nil,
        author: String? = nil,
        rating: RatingFilter? = nil,
        yearRead: Int? = nil,
        tag: String? = nil,
        text: String? = nil
    ) {
        self.shelf = shelf
        self.author = author
        self.rating = rating
        self.yearRead = yearRead
        self.tag = tag
        self.text = text
    }
}

/// How to order a listing.
package struct LibrarySort: Hashable, Sendable {
    package enum Key: String, Hashable, Sendable, CaseIterable {
        /// Best full-text match (only with `LibraryFilter.text`; else date added).
        case relevance
        case dateAdded = "added"
        case dateRead = "read"
        case title, author, rating, year

        /// Dates, ratings and years read naturally newest or highest first; names A→Z.
        package var descendsByDefault: Bool { [.dateAdded, .dateRead, .rating, .year].contains(self) }
    }

    package var key: Key
    package var descending: Bool

    package init(_ key: Key, descending: Bool? = nil) {
        self.key = key
        self.descending = descending ?? key.descendsByDefault
    }

    package static let newestFirst = LibrarySort(.dateAdded)
    package static let relevance = LibrarySort(.relevance)
}

/// What a reference to one book found.
package enum BookMatch: Hashable, Sendable {
    case one(LibraryBook)
    case none
    /// Several books match (at most 10 are listed).
    case ambiguous([LibraryBook])
}

/// A short handle for completion: id, ISBN and title.
package struct BookHandle: Hashable, Sendable {
    package var id: Int64
    package var isbn13: String?
    package var title: String
}
