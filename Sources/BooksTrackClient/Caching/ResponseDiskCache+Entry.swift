import Foundation

// A stored response read back from its row: pure decoding of column values (no GRDB), so that
// Fuzz/cache compiles it alone.
extension ResponseDiskCache {
    /// One stored response.
    package struct Entry: Sendable, Hashable {
        /// `GET /v1/search/isbn?isbn=9780441172719`.
        package var key: String
        package var status: Int
        /// The kept response headers (`ResponseDiskCache.keptHeaders`).
        package var headers: [HeaderField]
        package var body: Data
        package var etag: String?
        /// When the body was fetched or last revalidated (its age counts from here).
        package var storedAt: Date
        package var expiresAt: Date
        package var lastUsedAt: Date

        /// Fresh at `now`.
        package func isFresh(at now: Date) -> Bool { expiresAt > now }
    }

    /// One column of a stored row as SQLite holds it: any type, whatever the table says (damaged
    /// bytes or another tool, `sqlite3`, can leave a BLOB or NULL in a TEXT column).
    enum StoredValue: Sendable, Hashable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)
    }

    /// A stored row that is not a response: the column that is missing or of the wrong type.
    struct DamagedRow: Error, Sendable, Hashable {
        var column: String
    }

    /// The entry of a row's columns (the `response` table's names). Text must be text, numbers
    /// numbers (a whole REAL counts as an integer, an INTEGER as a time), times finite; a missing
    /// `headers`, `body` or `etag` is empty.
    static func entry(columns: [String: StoredValue]) throws(DamagedRow) -> Entry {
        func text(_ name: String) throws(DamagedRow) -> String {
            guard case .text(let value)? = columns[name] else { throw DamagedRow(column: name) }
            return value
        }
        func time(_ name: String) throws(DamagedRow) -> Date {
            switch columns[name] {
            case .real(let seconds)? where seconds.isFinite: return Date(timeIntervalSince1970: seconds)
            case .integer(let seconds)?: return Date(timeIntervalSince1970: Double(seconds))
            default: throw DamagedRow(column: name)
            }
        }
        let status: Int
        switch columns["status"] {
        case .integer(let number)? where (100...599).contains(number): status = Int(number)
        case .real(let number)? where (100...599).contains(number) && number.rounded() == number: status = Int(number)
        default: throw DamagedRow(column: "status")
        }
        let headers: [HeaderField]
        switch columns["headers"] {
        case nil, .null?: headers = []
        case .text(let lines)?: headers = decode(lines)
        default: throw DamagedRow(column: "headers")
        }
        let body: Data
        switch columns["body"] {
        case nil, .null?: body = Data()
        case .blob(let bytes)?: body = bytes
        case .text(let text)?: body = Data(text.utf8)
        default: throw DamagedRow(column: "body")
        }
        let etag: String?
        switch columns["etag"] {
        case nil, .null?: etag = nil
        case .text(let value)?: etag = value
        default: throw DamagedRow(column: "etag")
        }
        return Entry(
            key: try text("key"),
            status: status,
            headers: headers,
            body: body,
            etag: etag,
            storedAt: try time("storedAt"),
            expiresAt: try time("expiresAt"),
            lastUsedAt: try time("lastUsedAt")
        )
    }

    /// Headers as `name: value` lines (values with a line break are not kept).
    static func encode(_ headers: [HeaderField]) -> String {
        headers.filter { !$0.value.contains(where: \.isNewline) }.map { "\($0.name): \($0.value)" }.joined(
            separator: "\n"
        )
    }

    /// The stored lines back as headers. Any line break ends a line (CR LF is one Character, not
    /// split at "\n": a damaged row's "a: b\r\nc: d" was one header whose value held CR LF).
    static func decode(_ text: String) -> [HeaderField] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return HeaderField(
                name: String(line[..<colon]),
                value: String(line[line.index(after: colon)...].drop(while: { $0 == " " }))
            )
        }
    }
}
