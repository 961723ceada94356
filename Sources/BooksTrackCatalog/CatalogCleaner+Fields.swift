import BooksTrackContract
import Foundation

/// Pure field-level cleaning rules for goodbooks-10k `books.csv` (no I/O; unit-tested one quirk at a time).
package enum CatalogFieldCleaning {
    /// Outcome of cleaning the `isbn` column.
    package enum ISBNOutcome: Sendable, Equatable {
        case missing
        case invalid(String)
        case valid(isbn10: String, isbn13: String)
    }

    /// Left-pads the source ISBN-10 (leading zeros were dropped) to 10 characters, validates its
    /// checksum and derives the ISBN-13 (978 prefix, recomputed check digit). The source's float
    /// `isbn13` column is never used.
    package static func isbn(_ raw: String) -> ISBNOutcome {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .missing }
        guard trimmed.count <= 10 else { return .invalid(trimmed) }
        let padded = String(repeating: "0", count: 10 - trimmed.count) + trimmed
        guard let parsed = ISBN(padded), parsed.kind == .isbn10 else { return .invalid(trimmed) }
        return .valid(isbn10: parsed.value, isbn13: parsed.isbn13)
    }

    /// Name suffixes that follow a comma inside one author's name ("Martin Luther King, Jr.").
    static let nameSuffixes: Set<String> = [
        "jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "ph.d.", "md", "m.d.", "esq", "esq.",
    ]

    /// Splits the comma-separated `authors` column, re-attaching suffixes such as "Jr." to the
    /// preceding name and dropping empty pieces.
    package static func authors(_ raw: String) -> [String] {
        var result: [String] = []
        for piece in raw.components(separatedBy: ",") {
            let name = piece.trimmingCharacters(in: .whitespacesAndNewlines)
            if name.isEmpty { continue }
            if nameSuffixes.contains(name.lowercased()), let last = result.popLast() {
                result.append(last + ", " + name)
            } else {
                result.append(name)
            }
        }
        return result
    }

    /// Series parsed from the end of a display title.
    package struct SeriesInfo: Sendable, Equatable {
        package var name: String
        /// First number of the entry ("#1-3" → 1, "#0.5" → 0.5); nil when the number is not numeric.
        package var number: Double?
    }

    /// Parses "Title (Series Name, #1)" (also "#1-3", "#0.5", "#1–3", "#3: Part 2 of 2", "Series #2").
    /// Returns the title without the series suffix and the series, or the title unchanged and nil.
    package static func series(inTitle title: String) -> (base: String, series: SeriesInfo?) {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") else { return (trimmed, nil) }
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        guard let hash = inner.lastIndex(of: "#") else { return (trimmed, nil) }
        var name = inner[..<hash].trimmingCharacters(in: .whitespaces)
        if name.hasSuffix(",") { name.removeLast() }
        name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return (trimmed, nil) }
        let spec = inner[inner.index(after: hash)...]
        var numberText = ""
        for ch in spec {
            if ch.isASCII, ch.isNumber || (ch == "." && !numberText.contains(".")) {
                numberText.append(ch)
            } else {
                break
            }
        }
        if numberText.hasSuffix(".") { numberText.removeLast() }
        let base = trimmed[..<open].trimmingCharacters(in: .whitespaces)
        return (base.isEmpty ? trimmed : base, SeriesInfo(name: name, number: Double(numberText)))
    }

    /// "2008.0" → 2008, "-720.0" → -720, "" → nil.
    package static func year(_ raw: String) -> Int? {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let value = Double(trimmed), value.isFinite, abs(value) < 100_000 else { return nil }
        return Int(value.rounded(.towardZero))
    }

    /// ISO 639-2 codes and locale tags of the source mapped to ISO 639-1.
    static let languageMap: [String: String] = [
        "eng": "en", "en": "en", "en-us": "en", "en-gb": "en", "en-ca": "en", "en-au": "en",
        "ara": "ar", "fre": "fr", "fra": "fr", "ind": "id", "spa": "es", "es-mx": "es", "ger": "de", "deu": "de",
        "jpn": "ja", "per": "fa", "fas": "fa", "por": "pt", "pol": "pl", "nor": "no", "dan": "da",
        "ita": "it", "nl": "nl", "dut": "nl", "nld": "nl", "vie": "vi", "tur": "tr", "swe": "sv",
        "rum": "ro", "ron": "ro", "rus": "ru", "chi": "zh", "zho": "zh", "kor": "ko", "gre": "el", "heb": "he",
    ]

    /// Normalizes a language code ("eng", "en-US" → "en"); empty → nil; unknown codes are kept lower-cased.
    package static func language(_ raw: String) -> String? {
        let key = raw.trimmingCharacters(in: .whitespaces).lowercased()
        if key.isEmpty { return nil }
        return languageMap[key] ?? key
    }

    /// Drops Goodreads' "nophoto" placeholder URLs and empty values.
    package static func imageURL(_ raw: String) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.contains("/nophoto/") { return nil }
        return trimmed
    }
}
