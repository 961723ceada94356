/// Which books to list. All conditions must hold; nil means "any".
public struct LibraryFilter: Hashable, Sendable {
    public enum RatingFilter: Hashable, Sendable {
        case atLeast(Double)
        case exactly(Double)
        case unrated
    }

    public var shelf: Shelf?
    /// Matches any author of the book whose name contains these letters (case, accents and
    /// punctuation ignored: "rowling" finds "J.K. Rowling").
    public var author: String?
    public var rating: RatingFilter?
    /// The year of "date read".
    public var yearRead: Int?
    public var tag: String?
    /// Full-text query over title, authors, series, review/notes and tags (every word must match;
    /// the last word as a prefix). With text, the default order is best match first.
    public var text: String?

    public init(
        shelf: Shelf? = nil, author: String? = nil, rating: RatingFilter? = nil, yearRead: Int? = nil,
        tag: String? = nil, text: String? = nil
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
public struct LibrarySort: Hashable, Sendable {
    public enum Key: String, Hashable, Sendable, CaseIterable {
        /// Best full-text match (only with `LibraryFilter.text`; else date added).
        case relevance
        case dateAdded = "added", dateRead = "read", title, author, rating, year

        /// Dates, ratings and years read naturally newest or highest first; names A→Z.
        public var descendsByDefault: Bool { [.dateAdded, .dateRead, .rating, .year].contains(self) }
    }

    public var key: Key
    public var descending: Bool

    public init(_ key: Key, descending: Bool? = nil) {
        self.key = key
        self.descending = descending ?? key.descendsByDefault
    }

    public static let newestFirst = LibrarySort(.dateAdded)
    public static let relevance = LibrarySort(.relevance)
}

/// What a reference to one book found.
public enum BookMatch: Hashable, Sendable {
    case one(LibraryBook)
    case none
    /// Several books match (at most 10 are listed).
    case ambiguous([LibraryBook])
}

/// A short handle for completion: id, ISBN and title.
public struct BookHandle: Hashable, Sendable {
    public var id: Int64
    public var isbn13: String?
    public var title: String
}
