import Foundation

extension BookLibrary {
    /// The query side of the library, on its read pool.
    package var reader: LibraryReader { LibraryReader(pool: readers, path: path.path) }

    /// Books matching `filter`, ordered by `sort`, at most `limit` (all when nil) after `offset`.
    package func list(
        _ filter: LibraryFilter = LibraryFilter(),
        sort: LibrarySort = .newestFirst,
        limit: Int? = nil,
        offset: Int = 0
    ) async throws(LibraryError) -> [LibraryBook] {
        try await reader.list(filter, sort: sort, limit: limit, offset: offset)
    }

    /// How many books match `filter`.
    package func count(_ filter: LibraryFilter = LibraryFilter()) async throws(LibraryError) -> Int {
        try await reader.count(filter)
    }

    /// Offline full-text search, best match first (see `LibraryFilter.text`).
    package func search(
        _ text: String,
        filter: LibraryFilter = LibraryFilter(),
        limit: Int = 50
    ) async throws(LibraryError) -> [LibraryBook] {
        try await reader.search(text, filter: filter, limit: limit)
    }

    /// One book by library id.
    package func book(id: Int64) async throws(LibraryError) -> LibraryBook? { try await reader.book(id: id) }

    /// Finds a book by ISBN (10 or 13, hyphens allowed), `#id`, ASIN, or title words.
    package func find(_ reference: String) async throws(LibraryError) -> BookMatch { try await reader.find(reference) }

    /// The subset of `isbns` (as given) whose book is in the library (ISBN-10 and -13 agree).
    package func holdings(of isbns: [String]) async throws(LibraryError) -> Set<String> {
        try await reader.holdings(of: isbns)
    }

    /// Every shelf in use with its count, plus the standard ones (count 0), in shelf order.
    package func shelves() async throws(LibraryError) -> [(shelf: Shelf, count: Int)] { try await reader.shelves() }

    /// Every tag in use with its count, most used first.
    package func tags() async throws(LibraryError) -> [(tag: String, count: Int)] { try await reader.tags() }

    /// Handles for completion: books whose title (or ISBN) starts with `prefix`, at most `limit`.
    package func handles(prefix: String, limit: Int = 50) async throws(LibraryError) -> [BookHandle] {
        try await reader.handles(prefix: prefix, limit: limit)
    }

    /// Figures for `stats`.
    package func stats() async throws(LibraryError) -> LibraryStats { try await reader.stats() }
}
