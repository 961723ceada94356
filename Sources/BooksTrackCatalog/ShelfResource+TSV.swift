import Foundation

/// A shelf of a book with its weight: `round(100 × log(1 + count) × idf)` (see `ShelfCleaner`).
package struct ShelfWeight: Sendable, Hashable {
    /// Index into `ShelfTable.names`.
    package var shelf: Int
    package var weight: Int
    package init(shelf: Int, weight: Int) {
        self.shelf = shelf
        self.weight = weight
    }
}

/// The cleaned shelves of the catalog: the shelf names and each book's strongest shelves.
package struct ShelfTable: Sendable, Hashable {
    /// Shelf names, most widespread first (index = shelf number).
    package var names: [String]
    /// goodbooks `book_id` → its shelves, heaviest first.
    package var books: [Int: [ShelfWeight]]
    package init(names: [String], books: [Int: [ShelfWeight]]) {
        self.names = names
        self.books = books
    }
}

/// The committed shelves format (`Resources/shelves.tsv`): UTF-8, newline-terminated lines.
/// Line 1 is `bts-shelves<TAB>1<TAB>N`; the next N lines are the shelf names (index 0 first);
/// then one line per book: `book_id<TAB>shelf:weight shelf:weight …`, heaviest first.
package enum ShelfResourceTSV {
    static let magic = "bts-shelves"
    static let version = "1"

    /// Errors reading the resource: the catalog resource's (`badHeader`, `badLine`).
    package typealias DecodeError = CatalogResourceTSV.DecodeError

    package static func encode(_ table: ShelfTable) -> String {
        var out = "\(magic)\t\(version)\t\(table.names.count)\n"
        for name in table.names { out += name + "\n" }
        for id in table.books.keys.sorted() {
            let pairs = (table.books[id] ?? []).map { "\($0.shelf):\($0.weight)" }.joined(separator: " ")
            out += "\(id)\t\(pairs)\n"
        }
        return out
    }

    package static func decode(data: Data) throws(DecodeError) -> ShelfTable {
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let first = lines.first else { throw .badHeader }
        let header = first.split(separator: UInt8(ascii: "\t")).map { String(decoding: $0, as: UTF8.self) }
        guard header.count == 3, header[0] == magic, header[1] == version, let count = Int(header[2]),
            count >= 0, lines.count > count
        else { throw .badHeader }
        let names = lines[1...count].map { String(decoding: $0, as: UTF8.self) }
        var books: [Int: [ShelfWeight]] = [:]
        books.reserveCapacity(10_000)
        for (offset, line) in lines.dropFirst(count + 1).enumerated() where !line.isEmpty {
            let number = count + 2 + offset
            let parts = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard parts.count == 2, let id = Int(String(decoding: parts[0], as: UTF8.self)) else {
                throw .badLine(number: number, reason: "expected book_id<TAB>shelves")
            }
            var shelves: [ShelfWeight] = []
            for pair in parts[1].split(separator: UInt8(ascii: " ")) {
                let fields = pair.split(separator: UInt8(ascii: ":"))
                guard fields.count == 2, let shelf = Int(String(decoding: fields[0], as: UTF8.self)),
                    let weight = Int(String(decoding: fields[1], as: UTF8.self)), names.indices.contains(shelf)
                else { throw .badLine(number: number, reason: "bad shelf:weight") }
                shelves.append(ShelfWeight(shelf: shelf, weight: weight))
            }
            books[id] = shelves
        }
        return ShelfTable(names: names, books: books)
    }
}
