import BooksTrackContract

/// Rewrites the ISBN cells of a CSV file as ISBN-13 before it is uploaded: every router of every
/// production version refuses an ISBN-10 ending in `X` (`^\d{10}(\d{3})?$`), and an ISBN-13 is taken
/// everywhere. Only the cells of columns named ISBN (`isbn`, `isbn10`, `isbn13`, `isbn/uid`, any case)
/// change, and only their ISBN-10 text (a Goodreads `="0439023483"` keeps its `="…"`); every other byte
/// of the file is kept as it was. RFC 4180 fields: quoted fields may hold commas, doubled quotes and
/// line breaks.
package enum CSVISBNRewriter {
    /// The file with its ISBN-10 cells as ISBN-13, or nil when no cell changes.
    package static func rewrite(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 20)
        var changed = false
        var isbnColumns: Set<Int> = []
        var header: [String] = []
        var record = 0
        var column = 0
        var index = 0
        var copied = 0
        while index <= bytes.count {
            // One field: [start, end) raw bytes, then its terminator (comma, newline or the end).
            let start = index
            var quoted = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") { quoted = true }
            var i = index + (quoted ? 1 : 0)
            while i < bytes.count {
                let byte = bytes[i]
                if quoted {
                    if byte == UInt8(ascii: "\"") {
                        if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") {
                            i += 2
                            continue
                        }
                        quoted = false
                    }
                    i += 1
                    continue
                }
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
                // A `="…"` cell: the quote opens after the `=`.
                if byte == UInt8(ascii: "\"") { quoted = true }
                i += 1
            }
            let end = i
            let field = bytes[start..<end]
            if record == 0 {
                header.append(Self.text(field).lowercased())
                if ["isbn", "isbn10", "isbn13", "isbn/uid", "isbn-10", "isbn-13"].contains(header.last ?? "") {
                    isbnColumns.insert(column)
                }
            } else if isbnColumns.contains(column), let (from, to, isbn13) = Self.isbn10(in: field) {
                out.append(contentsOf: bytes[copied..<from])
                out.append(contentsOf: Array(isbn13.utf8))
                copied = to
                changed = true
            }
            // The terminator.
            if end >= bytes.count { break }
            if bytes[end] == UInt8(ascii: ",") {
                column += 1
                index = end + 1
            } else {
                var next = end + 1
                if bytes[end] == UInt8(ascii: "\r"), next < bytes.count, bytes[next] == UInt8(ascii: "\n") { next += 1 }
                record += 1
                column = 0
                index = next
                if record == 1, isbnColumns.isEmpty { return nil }
            }
        }
        guard changed else { return nil }
        out.append(contentsOf: bytes[copied...])
        return out
    }

    /// A field's text without its quoting (`"a""b"` → `a"b`, `="x"` → `x`), trimmed.
    static func text(_ field: ArraySlice<UInt8>) -> String {
        var raw = String(decoding: field, as: UTF8.self).trimmingWhitespace()
        if raw.hasPrefix("=") { raw = raw.dropFirst() }
        if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") {
            raw = raw.dropFirst().dropLast()
        }
        return String(raw).replacingDoubledQuotes()
    }

    /// The byte range of the ISBN-10 a field holds and its ISBN-13 (nil for anything else).
    static func isbn10(in field: ArraySlice<UInt8>) -> (Int, Int, String)? {
        // The first run of ISBN characters (digits, X, hyphens) in the field.
        var first = field.startIndex
        while first < field.endIndex, !Self.isISBNByte(field[first]) { first += 1 }
        var last = first
        while last < field.endIndex, Self.isISBNByte(field[last]) || field[last] == UInt8(ascii: "-") { last += 1 }
        guard first < last else { return nil }
        let candidate = String(decoding: field[first..<last], as: UTF8.self)
        guard let isbn = ISBN(candidate), isbn.kind == .isbn10 else { return nil }
        return (first, last, isbn.isbn13)
    }

    static func isISBNByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "X") || byte == UInt8(ascii: "x")
    }
}

extension StringProtocol {
    /// `""` → `"` (inside a quoted CSV field).
    fileprivate func replacingDoubledQuotes() -> String {
        var out = ""
        var previousQuote = false
        for character in self {
            if character == "\"", previousQuote {
                previousQuote = false
                continue
            }
            previousQuote = character == "\""
            out.append(character)
        }
        return out
    }
}
