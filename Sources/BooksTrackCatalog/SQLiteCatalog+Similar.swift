import Foundation

/// `similar`: the books whose reader shelves are most like the source's (cosine of the shelf
/// vectors over all of a book's kept shelves), editions of one work shown once, at most a few by
/// any one author or by the source's own author and series, and no set that holds the source.
extension SQLiteCatalog {
    /// Added to a neighbour's cosine when it shares the source's first author or series: it only
    /// reorders near-ties (cosines within 0.005), so the author or series is never the whole answer.
    static let sameAuthorOrSeriesNudge: Float = 0.005

    /// The share of an answer (rounded up: 3 of 10) that may be by any one author, and that may be
    /// the source's own author and series together: the rest are the nearest books by others (the
    /// author's books stay one `search author` away).
    static let authorShare = 0.3

    package func similar(isbn13: String, limit: Int) throws -> [ScoredBook]? {
        guard let source = try book(isbn13: isbn13) else { return nil }
        return try similar(id: source.id, limit: limit)
    }

    /// Nearest neighbours of the book with goodbooks id `id` (itself, its other editions and the
    /// sets that hold it excluded); nil when unknown or when the book has no shelves.
    package func similar(id: Int, limit: Int) throws -> [ScoredBook]? {
        let books = try self.books
        let shelves = try self.shelfVectors
        guard let row = books.indexOfID[id], row < shelves.rows.count, !shelves.rows[row].isEmpty else { return nil }
        let source = books.all[row]
        let author = source.authors.first
        func own(_ candidate: CatalogBook) -> Bool {
            (author != nil && candidate.authors.first == author)
                || (source.series != nil && candidate.series == source.series)
        }
        let limit = min(max(limit, 0), Self.maxLimit)
        let share = Int((Double(limit) * Self.authorShare).rounded(.up))
        let next = { (candidate: CatalogBook) in Self.isNextVolume(candidate, after: source) }
        // The next volume is listed whatever its score, so it is considered even outside the pool.
        let nextRows = source.series == nil ? [] : books.all.indices.filter { next(books.all[$0]) }
        let holdsSource = CollectionTest(source)
        return neighbours(
            of: shelves.rows[row],
            excludingRows: [row],
            excludingWorks: Set(WorkIdentity.keys(source)),
            limit: limit,
            perAuthor: share,
            own: (own, next, share),
            considering: nextRows
        ) { candidate in
            guard !holdsSource.holds(candidate) else { return nil }
            return own(candidate) ? Self.sameAuthorOrSeriesNudge : 0
        }
        .map { ScoredBook(book: books.all[$0.row], score: Double(min(1, max(0, $0.score)))) }
    }

    /// The book that follows the source in its series: `similar` lists it even when its score is
    /// low (a reader of #1 goes on with #2, which readers shelve less alike than the famous later
    /// volumes); the source's other own books compete by score with every other book.
    static func isNextVolume(_ candidate: CatalogBook, after source: CatalogBook) -> Bool {
        guard let series = source.series else { return false }
        return candidate.series == series && candidate.seriesNumber == (source.seriesNumber ?? 0) + 1
    }

    /// The `limit` rows closest to the unit-length `query` by shelf cosine plus `nudge`, best first,
    /// chosen by `NeighbourSelection`; `excludingRows` and books whose nudge is nil are left out;
    /// the rows in `extra` are considered even outside the pool.
    func neighbours(
        of query: [SparseEntry],
        excludingRows: Set<Int>,
        excludingWorks: Set<String>,
        limit: Int,
        perAuthor: Int = .max,
        own: NeighbourSelection.Own? = nil,
        considering extra: [Int] = [],
        nudge: (CatalogBook) -> Float?
    ) -> [(row: Int, score: Float)] {
        guard limit > 0, let books = try? self.books, let shelves = try? self.shelfVectors else { return [] }
        return shelves.index.withScores(sparse: query) { scores in
            for row in excludingRows where row < scores.count { scores[row] = -.infinity }
            // Editions, nudges and the caps only reorder a little: 6× the answer plus 30 is ample.
            var pool = VectorIndex.topK(UnsafeBufferPointer(scores), k: min(scores.count, limit * 6 + 30))
            pool += extra.filter { $0 < scores.count && !pool.contains($0) }
            let ranked = pool.filter { scores[$0] > 0 }
                .compactMap { row in nudge(books.all[row]).map { (row: row, score: scores[row] + $0) } }
                .sorted { $0.score != $1.score ? $0.score > $1.score : $0.row < $1.row }
            return NeighbourSelection.select(
                ranked,
                books: books.all,
                excludingWorks: excludingWorks,
                limit: limit,
                perAuthor: perAuthor,
                own: own
            )
        }
    }
}
