import BooksTrackSupport
import Foundation
import GRDB

/// The database's book rows: how the builder writes a book's authors, shelves and vectors and
/// how the catalog reads them back.
enum CatalogRows {
    /// Separator of author names in the `books.authors` column (and of shelf names in `books.shelves`).
    static let authorSeparator = "\u{1F}"

    /// Little-endian Float32 bytes.
    static func encodeVector(_ v: [Float]) -> Data {
        let words = v.map { $0.bitPattern.littleEndian }
        return words.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// Little-endian (UInt32 shelf, UInt32 weight) pairs.
    static func encodeShelfVector(_ shelves: [ShelfWeight]) -> Data {
        let words = shelves.flatMap { [UInt32($0.shelf).littleEndian, UInt32(max(0, $0.weight)).littleEndian] }
        return words.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// The columns of a book, in the order `book(from:)` reads them.
    static let selectBooks = """
        SELECT id, goodreads_book_id, goodreads_work_id, isbn10, isbn13, title, original_title, series,
               series_number, authors, year, language, average_rating, ratings_count, image_url,
               small_image_url, shelves
        FROM books
        """

    /// A book from a row of `selectBooks`.
    static func book(from row: Row) -> CatalogBook {
        let authors: String = row[9]
        let shelves: String = row[16]
        return CatalogBook(
            id: row[0],
            goodreadsBookID: row[1],
            goodreadsWorkID: row[2],
            isbn10: row[3],
            isbn13: row[4],
            title: row[5],
            originalTitle: row[6],
            series: row[7],
            seriesNumber: row[8],
            authors: authors.isEmpty ? [] : authors.components(separatedBy: authorSeparator),
            year: row[10],
            language: row[11],
            averageRating: row[12],
            ratingsCount: row[13],
            imageURL: row[14],
            smallImageURL: row[15],
            shelves: shelves.isEmpty ? [] : shelves.components(separatedBy: authorSeparator)
        )
    }

    /// Every book, ordered by id.
    static func loadBooks(_ db: Database) throws -> [CatalogBook] {
        var books: [CatalogBook] = []
        books.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM books") ?? 0)
        let rows = try Row.fetchCursor(db, sql: selectBooks + " ORDER BY id")
        while let row = try rows.next() { books.append(book(from: row)) }
        return books
    }

    /// The vectors of the books `ids` (ordered by id, as `loadBooks` returns them), written
    /// straight into a column-major matrix (only non-zero values: it starts zeroed), which
    /// `VectorIndex` keeps sparse.
    static func loadVectors(_ db: Database, ids: [Int]) throws -> VectorIndex {
        let dimension = HashingEmbedding.dimension
        let n = ids.count
        var columns = [Float](repeating: 0, count: n * dimension)
        let rows = try Row.fetchCursor(db, sql: "SELECT id, vector FROM books ORDER BY id")
        var index = 0
        try columns.withUnsafeMutableBufferPointer { dst in
            while let row = try rows.next(), index < n {
                let id: Int = row[0]
                guard id == ids[index] else { throw SQLiteCatalog.OpenError.badVector(id: id) }
                let copied = try row.withUnsafeData(atIndex: 1) { blob -> Bool in
                    guard let blob, blob.count == dimension * 4 else { return false }
                    blob.withUnsafeBytes { raw in
                        for j in 0..<dimension {
                            let bits = raw.loadUnaligned(fromByteOffset: j * 4, as: UInt32.self)
                            if bits != 0 { dst[j * n + index] = Float(bitPattern: UInt32(littleEndian: bits)) }
                        }
                    }
                    return true
                }
                guard copied else { throw SQLiteCatalog.OpenError.badVector(id: id) }
                index += 1
            }
        }
        return VectorIndex(dimension: dimension, ids: ids, columns: columns)
    }
}
