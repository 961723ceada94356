import Foundation
import GRDB

extension SQLiteCatalog {
    /// Separator of author names in the `books.authors` column.
    static let authorSeparator = "\u{1F}"

    /// Creates the schema and inserts every book with its vector and FTS row (one transaction).
    static func build(_ db: Database, books: [CatalogBook], key: String) throws {
        try db.execute(
            sql: """
                CREATE TABLE meta(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                CREATE TABLE books(
                    id INTEGER PRIMARY KEY NOT NULL,
                    goodreads_book_id INTEGER NOT NULL,
                    goodreads_work_id INTEGER NOT NULL,
                    isbn10 TEXT, isbn13 TEXT,
                    title TEXT NOT NULL, original_title TEXT,
                    series TEXT, series_number REAL,
                    authors TEXT NOT NULL,
                    year INTEGER, language TEXT,
                    average_rating REAL NOT NULL, ratings_count INTEGER NOT NULL,
                    image_url TEXT, small_image_url TEXT,
                    vector BLOB NOT NULL);
                CREATE INDEX books_isbn13 ON books(isbn13);
                CREATE VIRTUAL TABLE books_fts USING fts5(
                    title, original_title, series, authors,
                    tokenize = 'unicode61 remove_diacritics 2');
                """)
        let insertBook = try db.makeStatement(
            sql: """
                INSERT INTO books VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let insertFTS = try db.makeStatement(
            sql: "INSERT INTO books_fts(rowid, title, original_title, series, authors) VALUES (?, ?, ?, ?, ?)")
        for b in books {
            let vector = HashingEmbedding.embed(b)
            try insertBook.execute(arguments: [
                b.id, b.goodreadsBookID, b.goodreadsWorkID, b.isbn10, b.isbn13, b.title, b.originalTitle,
                b.series, b.seriesNumber, b.authors.joined(separator: authorSeparator), b.year, b.language,
                b.averageRating, b.ratingsCount, b.imageURL, b.smallImageURL, encodeVector(vector),
            ])
            let base = CatalogFieldCleaning.series(inTitle: b.title).base
            try insertFTS.execute(arguments: [
                b.id, base, b.originalTitle, b.series, b.authors.joined(separator: ", "),
            ])
        }
        try db.execute(
            sql: "INSERT INTO meta(key, value) VALUES ('content_key', ?), ('books', ?), ('dimension', ?)",
            arguments: [key, String(books.count), String(HashingEmbedding.dimension)])
        try db.execute(sql: "INSERT INTO books_fts(books_fts) VALUES ('optimize')")
    }

    /// Little-endian Float32 bytes.
    static func encodeVector(_ v: [Float]) -> Data {
        var data = Data(capacity: v.count * 4)
        for x in v {
            var le = x.bitPattern.littleEndian
            withUnsafeBytes(of: &le) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// Reads every book (ordered by id) and the vectors into one contiguous row-major array.
    static func loadAll(_ db: Database) throws -> ([CatalogBook], [Float]) {
        let dimension = HashingEmbedding.dimension
        var books: [CatalogBook] = []
        var values: [Float] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM books ORDER BY id")
        while let row = try rows.next() {
            let id: Int = row["id"]
            let authors: String = row["authors"]
            books.append(
                CatalogBook(
                    id: id, goodreadsBookID: row["goodreads_book_id"], goodreadsWorkID: row["goodreads_work_id"],
                    isbn10: row["isbn10"], isbn13: row["isbn13"], title: row["title"],
                    originalTitle: row["original_title"], series: row["series"], seriesNumber: row["series_number"],
                    authors: authors.isEmpty ? [] : authors.components(separatedBy: authorSeparator),
                    year: row["year"], language: row["language"], averageRating: row["average_rating"],
                    ratingsCount: row["ratings_count"], imageURL: row["image_url"], smallImageURL: row["small_image_url"]))
            let blob: Data = row["vector"]
            guard blob.count == dimension * 4 else { throw OpenError.badVector(id: id) }
            blob.withUnsafeBytes { raw in
                for j in 0..<dimension {
                    let bits = raw.loadUnaligned(fromByteOffset: j * 4, as: UInt32.self)
                    values.append(Float(bitPattern: UInt32(littleEndian: bits)))
                }
            }
        }
        return (books, values)
    }
}
