/// How an import row found its book: its ISBN, or its title (and author). Open: a value this build
/// does not know decodes as itself.
package struct ImportMatchKind: OpenStringEnum {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    /// The row's ISBN (ISBN13 or ISBN column) is the catalog book's.
    package static let isbn: ImportMatchKind = "isbn"
    /// The row's title (and author, when the file has one) found the book: its ISBN was missing,
    /// invalid or unknown.
    package static let title: ImportMatchKind = "title"
}

/// One row of an import that the server matched by something other than its ISBN (`matches` of the
/// import results): which row, the file's title, the book it was matched to, and how. bts's own
/// server sends it; production's results have no such list (the client reads its absence as none).
package struct ImportMatch: Codable, Sendable, Hashable {
    /// 1-based data row number, as in `errors`.
    package var row: Int
    /// The title as the file has it.
    package var csvTitle: String
    /// The matched book's title, authors and ISBN (the catalog's).
    package var matchedTitle: String
    package var matchedAuthors: [String]
    package var isbn: String?
    package var matchedBy: ImportMatchKind

    package init(
        row: Int,
        csvTitle: String,
        matchedTitle: String,
        matchedAuthors: [String],
        isbn: String?,
        matchedBy: ImportMatchKind
    ) {
        self.row = row
        self.csvTitle = csvTitle
        self.matchedTitle = matchedTitle
        self.matchedAuthors = matchedAuthors
        self.isbn = isbn
        self.matchedBy = matchedBy
    }

    enum CodingKeys: String, CodingKey { case row, csvTitle, matchedTitle, matchedAuthors, isbn, matchedBy }

    /// Lenient: numbers may be strings, missing lists are empty, a missing kind is `title`.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        row = try c.decodeLenientInt(forKey: .row) ?? 0
        csvTitle = try c.decodeLenientString(forKey: .csvTitle) ?? ""
        matchedTitle = try c.decodeLenientString(forKey: .matchedTitle) ?? ""
        matchedAuthors = try c.decodeArrayOrEmpty(String.self, forKey: .matchedAuthors)
        isbn = try c.decodeLenientString(forKey: .isbn).flatMap { $0.isEmpty ? nil : $0 }
        matchedBy = try c.decodeIfPresent(ImportMatchKind.self, forKey: .matchedBy) ?? .title
    }
}
