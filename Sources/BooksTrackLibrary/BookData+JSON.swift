import BooksTrackContract
import Foundation

extension BookData {
    /// Keys read for each field, first present wins (the spellings of every shape the API sends).
    /// `isbnKeys` is also what the shell's completion harvests ISBNs by.
    package static let isbnKeys = ["isbn13", "isbn", "isbn_13", "isbn10", "isbn_10"]
    /// The key of a list of ISBNs (its first is the book's when no single ISBN key is present).
    package static let isbnListKey = "isbns"
    static let coverKeys = ["coverUrl", "coverURL", "cover_url", "coverImageURL", "image_url"]

    /// The books anywhere in a command's result (the shell's `$_`): every object with a string
    /// `title` and an ISBN or authors, in order, de-duplicated by library key. Also reads the
    /// work/edition/author shape (`{works, editions, authors}`) and batch items' `enriched`
    /// records. Bounded: at most `nodeLimit` JSON nodes, nesting to 12 levels.
    package static func books(in value: JSONValue, nodeLimit: Int = 100_000) -> [BookData] {
        var out: [BookData] = []
        var seen: Set<String> = []
        var budget = nodeLimit
        collect(value, depth: 0, budget: &budget) { book in
            if seen.insert(book.key).inserted { out.append(book) }
        }
        return out
    }

    private static func collect(_ value: JSONValue, depth: Int, budget: inout Int, _ emit: (BookData) -> Void) {
        guard budget > 0, depth <= 12 else { return }
        budget -= 1
        switch value {
        case .array(let elements):
            for element in elements {
                guard budget > 0 else { return }
                collect(element, depth: depth + 1, budget: &budget, emit)
            }
        case .object(let members):
            if members["works"]?.arrayValue != nil, let response = decode(BookSearchResponse.self, value) {
                budget -= response.works.count
                SearchResults(response).items.map(BookData.init).forEach(emit)
                return
            }
            if let enriched = members["enriched"], enriched.objectValue != nil,
                let record = decode(EnrichedRecord.self, enriched)
            {
                emit(BookData(record))
                return
            }
            if let book = book(members) {
                emit(book)
                return
            }
            for (_, member) in members.sorted(by: { $0.key < $1.key }) {
                switch member {
                case .array, .object: collect(member, depth: depth + 1, budget: &budget, emit)
                default: continue
                }
            }
        default:
            return
        }
    }

    /// One flat book object, or nil when it has no title or neither an ISBN nor authors.
    static func book(_ m: [String: JSONValue]) -> BookData? {
        guard let title = m["title"]?.stringValue, !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            return nil
        }
        let isbn =
            isbnKeys.lazy.compactMap { m[$0]?.stringValue ?? m[$0]?.intValue.map(String.init) }.first
            ?? m[isbnListKey]?.arrayValue?.first?.stringValue
        var authors: [String] = []
        switch m["authors"] {
        case .array(let list)?: authors = list.compactMap { $0.stringValue ?? $0["name"]?.stringValue }
        case .string(let one)?: authors = [one]
        default: if let one = m["author"]?.stringValue { authors = [one] }
        }
        guard isbn != nil || !authors.isEmpty else { return nil }
        func string(_ keys: String...) -> String? { keys.lazy.compactMap { m[$0]?.stringValue }.first }
        func int(_ keys: String...) -> Int? { keys.lazy.compactMap { m[$0]?.intValue }.first }
        let subjects = (m["categories"] ?? m["subjectTags"])?.arrayValue?.compactMap(\.stringValue) ?? []
        return BookData(
            title: title,
            authors: authors,
            isbn: isbn,
            publisher: string("publisher"),
            publishedDate: string("publishedDate", "publicationDate"),
            publishedYear: int("publishedYear", "year"),
            originalYear: int("firstPublicationYear"),
            pageCount: int("pageCount"),
            format: string("format"),
            language: string("language"),
            coverURL: coverKeys.lazy.compactMap { m[$0]?.stringValue }.first,
            description: string("description"),
            subjects: subjects
        )
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue) -> T? {
        guard let data = try? JSONEncoder().encode(value) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }
}
