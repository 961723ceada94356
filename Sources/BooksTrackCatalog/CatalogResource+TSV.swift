import BooksTrackContract
import Foundation

/// The committed cleaned-catalog format (`Resources/catalog.tsv`): UTF-8, one book per line,
/// tab-separated, first line a header. Fields escape `\\`, tab and newline as `\\`, `\t`, `\n`.
///
/// Columns: id, goodreads_book_id, goodreads_work_id, isbn10, isbn13, title, original_title,
/// series, series_number, authors (joined with `|`), year, language, average_rating, ratings_count,
/// image_url, small_image_url. Empty means absent. `small_image_url` is `~` when it is the
/// `image_url` with its Goodreads size letter `m` replaced by `s` (saves ~0.6 MB).
package enum CatalogResourceTSV {
    package static let header = [
        "id", "goodreads_book_id", "goodreads_work_id", "isbn10", "isbn13", "title", "original_title",
        "series", "series_number", "authors", "year", "language", "average_rating", "ratings_count",
        "image_url", "small_image_url",
    ]

    /// Errors reading the resource.
    package enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
        case badHeader
        case badLine(number: Int, reason: String)

        package var description: String {
            switch self {
            case .badHeader: return "catalog resource: unexpected header"
            case .badLine(let n, let reason): return "catalog resource line \(n): \(reason)"
            }
        }
    }

    static func escape(_ s: String) -> String {
        guard s.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "|" }) else { return s }
        var out = ""
        for ch in s {
            switch ch {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "|": out += "\\p"
            default: out.append(ch)
            }
        }
        return out
    }

    static func unescape<S: StringProtocol>(_ s: S) -> String {
        guard s.contains("\\") else { return String(s) }
        var out = ""
        var escaping = false
        for ch in s {
            if escaping {
                switch ch {
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "p": out.append("|")
                default: out.append(ch)
                }
                escaping = false
            } else if ch == "\\" {
                escaping = true
            } else {
                out.append(ch)
            }
        }
        return out
    }

    /// The small image URL Goodreads derives from the medium one (`.../1447303603m/...` → `s`).
    static func derivedSmallImage(_ url: String) -> String? {
        guard let range = url.range(of: "m/", options: .backwards) else { return nil }
        return url.replacingCharacters(in: range, with: "s/")
    }

    static func formatNumber(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e9 ? String(Int(d)) : String(d)
    }

    /// One book as a TSV line (no newline).
    package static func encode(_ b: CatalogBook) -> String {
        let small: String
        if let s = b.smallImageURL {
            small = (b.imageURL.flatMap(derivedSmallImage) == s) ? "~" : escape(s)
        } else {
            small = ""
        }
        let fields: [String] = [
            String(b.id), String(b.goodreadsBookID), String(b.goodreadsWorkID),
            b.isbn10 ?? "", b.isbn13 ?? "", escape(b.title), escape(b.originalTitle ?? ""),
            escape(b.series ?? ""), b.seriesNumber.map(formatNumber) ?? "",
            b.authors.map(escape).joined(separator: "|"), b.year.map(String.init) ?? "",
            escape(b.language ?? ""), String(b.averageRating), String(b.ratingsCount),
            escape(b.imageURL ?? ""), small,
        ]
        return fields.joined(separator: "\t")
    }

    /// The whole file (header plus one line per book, newline-terminated).
    package static func encode(_ books: [CatalogBook]) -> String {
        var out = header.joined(separator: "\t") + "\n"
        for b in books { out += encode(b) + "\n" }
        return out
    }

    /// Parses the whole file.
    package static func decode(_ text: String) throws(DecodeError) -> [CatalogBook] {
        try decode(data: Data(text.utf8))
    }

    /// Parses the whole file from UTF-8 bytes (splits on bytes, which is much faster than on Characters).
    package static func decode(data: Data) throws(DecodeError) -> [CatalogBook] {
        var books: [CatalogBook] = []
        books.reserveCapacity(10_000)
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            if lineNumber == 1 {
                guard fields == header else { throw .badHeader }
                continue
            }
            if line.isEmpty { continue }
            books.append(try decodeLine(fields, number: lineNumber))
        }
        if lineNumber == 0 { throw .badHeader }
        return books
    }

    static func decodeLine(_ f: [String], number: Int) throws(DecodeError) -> CatalogBook {
        guard f.count == header.count else {
            throw .badLine(number: number, reason: "expected \(header.count) fields, got \(f.count)")
        }
        func int(_ i: Int) throws(DecodeError) -> Int {
            guard let v = Int(f[i]) else { throw .badLine(number: number, reason: "bad \(header[i]) '\(f[i])'") }
            return v
        }
        func optional(_ i: Int) -> String? { f[i].isEmpty ? nil : unescape(f[i]) }
        guard let rating = Double(f[12]) else { throw .badLine(number: number, reason: "bad average_rating") }
        let image = optional(14)
        let small: String? = f[15] == "~" ? image.flatMap(derivedSmallImage) : optional(15)
        return CatalogBook(
            id: try int(0),
            goodreadsBookID: try int(1),
            goodreadsWorkID: try int(2),
            isbn10: optional(3),
            isbn13: optional(4),
            title: unescape(f[5]),
            originalTitle: optional(6),
            series: optional(7),
            seriesNumber: f[8].isEmpty ? nil : Double(f[8]),
            authors: f[9].isEmpty
                ? [] : f[9].split(separator: "|", omittingEmptySubsequences: false).map { unescape($0) },
            year: f[10].isEmpty ? nil : Int(f[10]),
            language: optional(11),
            averageRating: rating,
            ratingsCount: try int(13),
            imageURL: image,
            smallImageURL: small
        )
    }
}
