import Foundation
import GRDB

/// Every book's shelf vector (from `Resources/shelves.tsv`), L2-normalised so a dot product is a
/// cosine, rows in the order of `books.all`: 10,000 books × ≤ 30 shelves, ~1.2 MB in memory.
struct ShelfVectors: Sendable {
    let index: VectorIndex
    /// `rows[row]`: the row's non-zero (shelf, weight) pairs, heaviest first.
    let rows: [[SparseEntry]]
    /// Shelf names by shelf number.
    let names: [String]
}

extension SQLiteCatalog {
    /// Shelves shown with a book (`CatalogBook.shelves`, the `search isbn` JSON's `subjectTags`).
    package static let shownShelves = 8

    static func createShelfNames(_ db: Database, _ names: [String]) throws {
        try db.execute(sql: "CREATE TABLE shelf_names(id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL)")
        let insert = try db.makeStatement(sql: "INSERT INTO shelf_names VALUES (?, ?)")
        for (i, name) in names.enumerated() { try insert.execute(arguments: [i, name]) }
    }

    /// Little-endian (UInt32 shelf, UInt32 weight) pairs.
    static func encodeShelfVector(_ shelves: [ShelfWeight]) -> Data {
        let words = shelves.flatMap { [UInt32($0.shelf).littleEndian, UInt32(max(0, $0.weight)).littleEndian] }
        return words.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// The shelf vectors (loaded once, on first use of `similar` or personal recommendations).
    var shelfVectors: ShelfVectors {
        get throws {
            try loadedShelfVectors.get {
                let ids = try books.all.map(\.id)
                return try database.read { db in try Self.loadShelfVectors(db, ids: ids) }
            }
        }
    }

    static func loadShelfVectors(_ db: Database, ids: [Int]) throws -> ShelfVectors {
        let names = try String.fetchAll(db, sql: "SELECT name FROM shelf_names ORDER BY id")
        var rows: [[SparseEntry]] = []
        rows.reserveCapacity(ids.count)
        let cursor = try Row.fetchCursor(db, sql: "SELECT id, shelf_vector FROM books ORDER BY id")
        while let row = try cursor.next(), rows.count < ids.count {
            let id: Int = row[0]
            guard id == ids[rows.count] else { throw OpenError.badVector(id: id) }
            let entries = try row.withUnsafeData(atIndex: 1) { blob -> [SparseEntry]? in
                guard let blob, blob.count % 8 == 0 else { return blob == nil ? [] : nil }
                return blob.withUnsafeBytes { raw in
                    (0..<(blob.count / 8)).map { i in
                        let shelf = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: UInt32.self))
                        let weight = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8 + 4, as: UInt32.self))
                        return SparseEntry(dimension: Int32(clamping: shelf), value: Float(weight))
                    }
                }
            }
            guard let entries, entries.allSatisfy({ Int($0.dimension) < names.count }) else {
                throw OpenError.badVector(id: id)
            }
            let norm = entries.reduce(Float(0)) { $0 + $1.value * $1.value }.squareRoot()
            rows.append(norm > 0 ? entries.map { SparseEntry(dimension: $0.dimension, value: $0.value / norm) } : [])
        }
        return ShelfVectors(
            index: VectorIndex(dimension: names.count, ids: ids, sparseRows: rows),
            rows: rows,
            names: names
        )
    }

    /// The identities of a work across the catalog's editions, one per author: the title without
    /// its series suffix, subtitle and "and other stories" tail, with an author, as word tokens.
    /// Two books are one work when they share one ("The Strange Case of Dr. Jekyll and Mr. Hyde"
    /// and "… and Other Tales of Terror" by Stevenson; "The Hobbit" and "The Hobbit: Graphic
    /// Novel", Tolkien its second author).
    static func workKeys(_ book: CatalogBook) -> [String] {
        let authors = book.authors.isEmpty ? [""] : book.authors
        return authors.map { workKey(title: book.title, author: $0) }
    }

    /// The work identity of a title with one author (a library's book is matched by its first).
    package static func workKey(title: String, author: String?) -> String {
        let base = CatalogFieldCleaning.series(inTitle: title).base
        let short = base.split(separator: ":", maxSplits: 1).first.map(String.init) ?? base
        var words = HashingEmbedding.tokens(short)
        if let tail = words.indices.first(where: {
            $0 > 0 && words[$0] == "and" && words.dropFirst($0 + 1).first == "other"
        }) {
            words.removeSubrange(tail...)
        }
        return words.joined(separator: " ") + "|"
            + HashingEmbedding.tokens(author ?? "").joined(separator: " ")
    }

    /// Dot product of two sparse vectors (each dimension at most once per vector).
    static func dot(_ a: [SparseEntry], _ b: [SparseEntry]) -> Float {
        var total: Float = 0
        for x in a { for y in b where y.dimension == x.dimension { total += x.value * y.value } }
        return total
    }

    /// The shelves two rows share, heaviest product first.
    static func sharedShelves(_ a: [SparseEntry], _ b: [SparseEntry], names: [String], limit: Int) -> [String] {
        var shared: [(name: String, weight: Float)] = []
        for x in a {
            for y in b where y.dimension == x.dimension && Int(x.dimension) < names.count {
                shared.append((names[Int(x.dimension)], x.value * y.value))
            }
        }
        return shared.sorted { $0.weight > $1.weight }.prefix(limit).map(\.name)
    }
}
