import Foundation

// Fuzz target: reading a stored response back from the on-disk cache (BooksTrackClient/Caching/
// ResponseDiskCache+Entry.swift, without GRDB: the class is stubbed here). The input is a row:
// for each column, a type byte (NULL, INTEGER, REAL, TEXT, BLOB, or absent) and its value. Any row
// decodes to an entry or to DamagedRow, never a trap; a decoded entry stored again reads back the same.
final class ResponseDiskCache: Sendable {}

let columnNames = ["key", "status", "headers", "body", "etag", "storedAt", "expiresAt", "lastUsedAt", "size"]

func fuzzOne(_ bytes: [UInt8]) {
    var reader = bytes[...]
    func take(_ count: Int) -> [UInt8] {
        let piece = Array(reader.prefix(count))
        reader = reader.dropFirst(count)
        return piece
    }
    func number() -> UInt64 { take(8).reduce(0) { $0 << 8 | UInt64($1) } }
    var columns: [String: ResponseDiskCache.StoredValue] = [:]
    for name in columnNames {
        guard let type = take(1).first else { break }
        switch type % 6 {
        case 0: columns[name] = .null
        case 1: columns[name] = .integer(Int64(bitPattern: number()))
        case 2: columns[name] = .real(Double(bitPattern: number()))
        case 3: columns[name] = .text(String(decoding: take(Int(take(1).first ?? 0)), as: UTF8.self))
        case 4: columns[name] = .blob(Data(take(Int(take(1).first ?? 0))))
        default: break
        }
    }
    // The rest of the input is a header block as stored.
    let lines = String(decoding: reader, as: UTF8.self)
    for header in ResponseDiskCache.decode(lines) {
        invariant(
            !header.name.contains(where: \.isNewline) && !header.value.contains(where: \.isNewline),
            "a header with a line break"
        )
    }
    guard let entry = try? ResponseDiskCache.entry(columns: columns) else { return }
    invariant((100...599).contains(entry.status), "status \(entry.status)")
    let stored: [String: ResponseDiskCache.StoredValue] = [
        "key": .text(entry.key), "status": .integer(Int64(entry.status)),
        "headers": .text(ResponseDiskCache.encode(entry.headers)),
        "body": .blob(entry.body), "etag": entry.etag.map { .text($0) } ?? .null,
        "storedAt": .real(entry.storedAt.timeIntervalSince1970),
        "expiresAt": .real(entry.expiresAt.timeIntervalSince1970),
        "lastUsedAt": .real(entry.lastUsedAt.timeIntervalSince1970),
    ]
    guard let again = try? ResponseDiskCache.entry(columns: stored) else {
        return invariant(false, "a stored entry does not read back")
    }
    invariant(
        again.key == entry.key && again.status == entry.status && again.body == entry.body && again.etag == entry.etag,
        "a stored entry reads back changed"
    )
    invariant(
        again.headers == entry.headers.filter { !$0.value.contains(where: \.isNewline) },
        "stored headers read back changed"
    )
    for (a, b) in [
        (again.storedAt, entry.storedAt), (again.expiresAt, entry.expiresAt), (again.lastUsedAt, entry.lastUsedAt),
    ] {
        let x = a.timeIntervalSince1970
        let y = b.timeIntervalSince1970
        invariant(x == y || abs(x - y) <= 1e-6 * max(1, abs(y)), "a stored time reads back as \(x), not \(y)")
    }
}
