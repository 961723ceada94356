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

    /// Reads every book's shelves (`books.shelf_vector`) for the books `ids`, in id order.
    static func load(_ db: Database, ids: [Int]) throws -> ShelfVectors {
        let names = try String.fetchAll(db, sql: "SELECT name FROM shelf_names ORDER BY id")
        var rows: [[SparseEntry]] = []
        rows.reserveCapacity(ids.count)
        let cursor = try Row.fetchCursor(db, sql: "SELECT id, shelf_vector FROM books ORDER BY id")
        while let row = try cursor.next(), rows.count < ids.count {
            let id: Int = row[0]
            guard id == ids[rows.count] else { throw SQLiteCatalog.OpenError.badVector(id: id) }
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
                throw SQLiteCatalog.OpenError.badVector(id: id)
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
