import GRDB

/// Figures for `stats`: books read per year, books per shelf, the ratings histogram.
package struct LibraryStats: Hashable, Sendable {
    package struct Count: Hashable, Sendable {
        package var label: String
        package var count: Int
        package init(_ label: String, _ count: Int) {
            self.label = label
            self.count = count
        }
    }

    package var books: Int
    package var works: Int
    package var authors: Int
    /// Books on the read shelf with a date read, per year, oldest year first.
    package var readPerYear: [Count]
    /// Books on the read shelf without a date read.
    package var readUndated: Int
    /// Per shelf, in shelf order (standard shelves always listed).
    package var perShelf: [Count]
    /// "1★" … "5★": a rating counts under its whole stars (4.5 under 4★; below 1 under 1★).
    package var ratings: [Count]
    package var unrated: Int
    /// Pages of the books on the read shelf that have a page count.
    package var pagesRead: Int
}

extension LibraryReader {
    package func stats() async throws(LibraryError) -> LibraryStats {
        let shelves = try await shelves()
        return try await read { db in
            let years = try Row.fetchAll(
                db,
                sql: """
                    SELECT substr(dateRead, 1, 4) AS y, count(*) AS n FROM reading
                    WHERE shelf = 'read' AND dateRead IS NOT NULL GROUP BY y ORDER BY y
                    """
            ).map { LibraryStats.Count(try $0.decode(forColumn: "y"), try $0.decode(forColumn: "n")) }
            var stars = [Int](repeating: 0, count: 5)
            for row in try Row.fetchAll(
                db,
                sql: "SELECT rating, count(*) AS n FROM reading WHERE rating IS NOT NULL GROUP BY rating"
            ) {
                // Clamped before `Int(_:)`: a value another tool wrote past the CHECK must not trap.
                let r: Double = try row.decode(forColumn: "rating")
                guard r.isFinite else { continue }
                stars[Int(min(5, max(1, r)).rounded(.down)) - 1] += try row.decode(Int.self, forColumn: "n")
            }
            return LibraryStats(
                books: try Int.fetchOne(db, sql: "SELECT count(*) FROM edition") ?? 0,
                works: try Int.fetchOne(db, sql: "SELECT count(*) FROM work") ?? 0,
                authors: try Int.fetchOne(db, sql: "SELECT count(*) FROM author") ?? 0,
                readPerYear: years,
                readUndated: try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM reading WHERE shelf = 'read' AND dateRead IS NULL"
                ) ?? 0,
                perShelf: shelves.map { LibraryStats.Count($0.shelf.rawValue, $0.count) },
                ratings: stars.enumerated().map { LibraryStats.Count("\($0.offset + 1)★", $0.element) },
                unrated: try Int.fetchOne(db, sql: "SELECT count(*) FROM reading WHERE rating IS NULL") ?? 0,
                pagesRead: try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COALESCE(sum(e.pageCount), 0) FROM edition e JOIN reading r ON r.editionId = e.id
                        WHERE r.shelf = 'read'
                        """
                ) ?? 0
            )
        }
    }
}
