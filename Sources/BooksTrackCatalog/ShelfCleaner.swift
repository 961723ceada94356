import CSV
import Foundation

/// What the shelf cleaner did.
package struct ShelfCleaningReport: Sendable, Hashable, CustomStringConvertible {
    package var rows = 0
    /// Rows repeating a (book, shelf) pair already read: the larger count is kept.
    package var duplicatePairs = 0
    /// Rows with a negative count (-1), skipped.
    package var negativeCounts = 0
    /// Rows whose book is not in books.csv, skipped.
    package var unknownBooks = 0
    /// Rows on a shelf dropped by rule (`ShelfNames.isGeneric`).
    package var genericRows = 0
    /// Rows on a shelf naming the book's own author, series or title (`ShelfCleaner.ownNameShelf`).
    package var ownNameRows = 0
    /// Distinct shelves after merging variants, and those kept (on at least two books).
    package var mergedShelves = 0
    package var keptShelves = 0
    package var books = 0
    package var outputBytes = 0
    package init() {}

    package var description: String {
        """
        rows=\(rows) duplicatePairs=\(duplicatePairs) negativeCounts=\(negativeCounts) unknownBooks=\(unknownBooks) \
        genericRows=\(genericRows) ownNameRows=\(ownNameRows) mergedShelves=\(mergedShelves) keptShelves=\(keptShelves) books=\(books) \
        bytes=\(outputBytes)
        """
    }
}

/// Turns goodbooks-10k `book_tags.csv` + `tags.csv` (+ `books.csv` for the id join) into the
/// committed `Resources/shelves.tsv`:
/// 1. Rows with a negative count are skipped; a (book, tag) pair read twice keeps its larger count
///    (6 rows are exact duplicates, 2 pairs differ).
/// 2. Tags become shelves by `ShelfNames.classify` (generic ones dropped, variants merged); a book's
///    counts on merged variants add up (different readers used different spellings).
/// 3. Weight of shelf s on book b: `log(1 + count) × log(N / df(s))` — N books, df(s) books on s —
///    so a shelf on almost every book (`fiction`) weighs almost nothing. Shelves on a single book
///    are dropped (they cannot make two books alike).
/// 4. A shelf naming the book's own author, series or title is left out of that book
///    (`hunger-games` on The Hunger Games, `harper-lee` on To Kill a Mockingbird: `ownNameShelf`),
///    so that `similar` answers by genre and theme; the same author or series is only its tie-break.
/// 5. Each book keeps its `perBook` heaviest shelves, as integers `round(100 × weight)`.
package enum ShelfCleaner {
    package static let perBook = 30

    package enum Failure: Error, Sendable, CustomStringConvertible {
        case unreadable(String)
        case badRow(file: String, line: Int)
        case csv(String)

        package var description: String {
            switch self {
            case .unreadable(let path): return "cannot read \(path)"
            case .badRow(let file, let line): return "\(file) line \(line): unexpected row"
            case .csv(let message): return "CSV error: \(message)"
            }
        }
    }

    /// Reads the three CSVs in `directory` and writes the resource to `destination` (atomically).
    package static func clean(directory: URL, to destination: URL) throws -> ShelfCleaningReport {
        func read(_ name: String) throws -> Data {
            let path = directory.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else { throw Failure.unreadable(path) }
            return data
        }
        var (table, report) = try clean(
            books: try read("books.csv"),
            tags: try read("tags.csv"),
            bookTags: try read("book_tags.csv")
        )
        let bytes = Data(ShelfResourceTSV.encode(table).utf8)
        try bytes.write(to: destination, options: .atomic)
        report.outputBytes = bytes.count
        table.books.removeAll()
        return report
    }

    /// Cleans the three files' bytes in memory.
    package static func clean(books: Data, tags: Data, bookTags: Data) throws -> (ShelfTable, ShelfCleaningReport) {
        var report = ShelfCleaningReport()
        let catalog = try catalogRows(books)
        let bookOfGoodreads = catalog.bookOfGoodreads
        let tagNames = try simpleRows(tags, file: "tags.csv").reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }

        // 1. Counts per (book, tag), duplicates and -1 handled.
        var counts: [Int: [Int: Int]] = [:]
        for (line, row) in try simpleRows(bookTags, file: "book_tags.csv").enumerated() {
            report.rows += 1
            let fields = row.1.split(separator: ",")
            guard fields.count == 2, let tag = Int(fields[0]), let count = Int(fields[1]) else {
                throw Failure.badRow(file: "book_tags.csv", line: line + 2)
            }
            guard count >= 0 else {
                report.negativeCounts += 1
                continue
            }
            guard let book = bookOfGoodreads[row.0] else {
                report.unknownBooks += 1
                continue
            }
            if let known = counts[book, default: [:]][tag] {
                report.duplicatePairs += 1
                counts[book, default: [:]][tag] = max(known, count)
            } else {
                counts[book, default: [:]][tag] = count
            }
        }

        // 2. Shelves: classify every tag once; merged counts per book.
        var shelfOfTag: [Int: String] = [:]
        var shownVotes: [String: [String: Int]] = [:]  // key → raw normalized spelling → total count
        var explicitShown: [String: String] = [:]
        for (tag, name) in tagNames {
            guard let (key, shown) = ShelfNames.classify(name) else { continue }
            shelfOfTag[tag] = key
            if let shown { explicitShown[key] = shown }
        }
        var merged: [Int: [String: Int]] = [:]
        for (book, tags) in counts {
            let own = catalog.ownNames[book] ?? []
            for (tag, count) in tags {
                guard let key = shelfOfTag[tag] else {
                    report.genericRows += 1
                    continue
                }
                if ownNameShelf(key, own: own) {
                    report.ownNameRows += 1
                    continue
                }
                merged[book, default: [:]][key, default: 0] += count
                shownVotes[key, default: [:]][ShelfNames.normalized(tagNames[tag] ?? key), default: 0] += count
            }
        }
        // Plurals: "vampires" joins "vampire" when both are shelves ("mysteries" → "mystery").
        let keys = Set(shownVotes.keys)
        var pluralOf: [String: String] = [:]
        for key in keys where explicitShown[key] == nil && key.count >= 5 && key.hasSuffix("s") {
            let singular = key.hasSuffix("ies") ? String(key.dropLast(3)) + "y" : String(key.dropLast())
            if keys.contains(singular) { pluralOf[key] = singular }
        }
        // Chains end at their last singular ("bookss" → "books" → "book"), whatever the order.
        for key in Array(pluralOf.keys) {
            var root = pluralOf[key] ?? key
            var steps = 0
            while let next = pluralOf[root], steps < 8 {
                root = next
                steps += 1
            }
            pluralOf[key] = root
        }
        if !pluralOf.isEmpty {
            for (book, shelves) in merged {
                var joined: [String: Int] = [:]
                for (key, count) in shelves { joined[pluralOf[key] ?? key, default: 0] += count }
                merged[book] = joined
            }
            for (plural, singular) in pluralOf {
                for (spelling, votes) in shownVotes[plural] ?? [:] {
                    shownVotes[singular, default: [:]][spelling, default: 0] += votes
                }
                shownVotes[plural] = nil
            }
        }
        report.mergedShelves = shownVotes.count

        // 3. IDF weights; 4. the heaviest per book.
        var df: [String: Int] = [:]
        for shelves in merged.values { for key in shelves.keys { df[key, default: 0] += 1 } }
        let n = Double(merged.count)
        var weighted: [Int: [(key: String, weight: Int)]] = [:]
        for (book, shelves) in merged {
            let top = shelves.compactMap { key, count -> (key: String, weight: Int)? in
                guard let d = df[key], d >= 2 else { return nil }
                let weight = Int((100 * log1p(Double(count)) * log(n / Double(d))).rounded())
                return weight > 0 ? (key, weight) : nil
            }
            .sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.key < $1.key }
            .prefix(perBook)
            weighted[book] = Array(top)
        }
        var used: [String: Int] = [:]
        for shelves in weighted.values { for s in shelves { used[s.key, default: 0] += 1 } }
        let order = used.keys.sorted { used[$0] != used[$1] ? (used[$0] ?? 0) > (used[$1] ?? 0) : $0 < $1 }
        var index: [String: Int] = [:]
        for (i, key) in order.enumerated() { index[key] = i }
        let names = order.map { key in
            explicitShown[key] ?? (shownVotes[key] ?? [:]).max {
                $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key
            }?.key ?? key
        }
        var table = ShelfTable(names: names, books: [:])
        for (book, shelves) in weighted where !shelves.isEmpty {
            table.books[book] = shelves.compactMap { s in index[s.key].map { ShelfWeight(shelf: $0, weight: s.weight) }
            }
        }
        report.keptShelves = names.count
        report.books = table.books.count
        return (table, report)
    }

    /// Whether the shelf `key` names one of a book's `own` names (keys of its authors, their
    /// surnames of 5 letters or more, series and title, without a leading "the"): equal to one, or starting with the series or title's
    /// (`hunger-games-trilogy`) when that has at least 5 letters.
    static func ownNameShelf(_ key: String, own: [String]) -> Bool {
        let key = withoutThe(key)
        return own.contains { $0 == key || ($0.count >= 5 && key.hasPrefix($0)) }
    }

    /// A name key without a leading "the" ("thehungergames" → "hungergames").
    static func withoutThe(_ key: String) -> String {
        key.hasPrefix("the") && key.count > 6 ? String(key.dropFirst(3)) : key
    }

    /// The rows of books.csv the cleaner needs: goodreads_book_id → book_id, and each book's own
    /// names for `ownNameShelf`.
    static func catalogRows(_ data: Data) throws -> (bookOfGoodreads: [Int: Int], ownNames: [Int: [String]]) {
        let reader: CSVReader
        do {
            reader = try CSVReader(stream: InputStream(data: data), hasHeaderRow: true)
        } catch {
            throw Failure.csv(String(describing: error))
        }
        let header = reader.headerRow ?? []
        guard let idColumn = header.firstIndex(of: "book_id"), let grColumn = header.firstIndex(of: "goodreads_book_id")
        else { throw Failure.csv("books.csv has no book_id/goodreads_book_id columns") }
        let titleColumn = header.firstIndex(of: "title")
        let authorsColumn = header.firstIndex(of: "authors")
        var map: [Int: Int] = [:]
        var ownNames: [Int: [String]] = [:]
        while let row = reader.next() {
            guard row.count > max(idColumn, grColumn), let id = Int(row[idColumn]), let gr = Int(row[grColumn]) else {
                continue
            }
            map[gr] = id
            let title = titleColumn.flatMap { $0 < row.count ? row[$0] : nil } ?? ""
            let authors = authorsColumn.flatMap { $0 < row.count ? CatalogFieldCleaning.authors(row[$0]) : nil } ?? []
            let (base, series) = CatalogFieldCleaning.series(inTitle: title)
            // Surnames too (`tolkien` on J.R.R. Tolkien's books), when long enough not to be a word.
            let surnames = authors.compactMap { $0.split(separator: " ").last.map(String.init) }.filter {
                $0.count >= 5
            }
            ownNames[id] = ([base, series?.name ?? ""] + authors + surnames).map { withoutThe(ShelfNames.key($0)) }
                .filter { !$0.isEmpty }
        }
        if let error = reader.error { throw Failure.csv(String(describing: error)) }
        return (map, ownNames)
    }

    /// Rows of a header-first CSV without quoting: (leading integer, rest of the line).
    static func simpleRows(_ data: Data, file: String) throws -> [(Int, String)] {
        var out: [(Int, String)] = []
        for (i, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where i > 0 {
            // Split on the byte: a name may start with a mark that joins the comma's grapheme (U+0640).
            let row = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            guard let comma = row.firstIndex(of: UInt8(ascii: ",")),
                let first = Int(String(decoding: row[..<comma], as: UTF8.self))
            else { throw Failure.badRow(file: file, line: i + 1) }
            out.append((first, String(decoding: row[(comma + 1)...], as: UTF8.self)))
        }
        return out
    }
}
