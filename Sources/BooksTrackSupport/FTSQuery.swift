import Foundation

/// Builds FTS5 MATCH expressions from untrusted user input, for the catalog's and the library's
/// full-text search. Input is split into word tokens (letters and digits only; apostrophes are
/// dropped, as in the catalog's index: "ender's" → "enders") and every token is emitted as a
/// double-quoted string, so FTS syntax in the input (`"`, `*`, `-`, `:`, `^`, `(`, `AND`, `NEAR`,
/// ...) is always taken literally.
package enum FTSQuery {
    /// At most this many tokens are used (longer inputs are cut).
    package static let maxTerms = 24
    /// Tokens longer than this are cut.
    package static let maxTermLength = 64

    /// Word tokens of `input` in order.
    package static func terms(_ input: String) -> [String] {
        var out: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty, out.count < maxTerms { out.append(String(current.prefix(maxTermLength))) }
            current = ""
        }
        for scalar in input.unicodeScalars {
            if scalar == "'" || scalar == "\u{2019}" { continue }
            if CharacterSet.alphanumerics.contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else {
                flush()
            }
            if out.count >= maxTerms { break }
        }
        flush()
        return out
    }

    /// `{c1 c2} : "t1" AND {c1 c2} : "t2"*` — every term must match in one of `columns`; the last
    /// term matches as a prefix when `prefixLast`. Nil when the input has no terms.
    package static func expression(_ input: String, columns: [String], prefixLast: Bool = true) -> String? {
        let words = terms(input)
        guard !words.isEmpty else { return nil }
        let filter = "{" + columns.joined(separator: " ") + "} : "
        return words.enumerated().map { i, w in
            filter + "\"" + w + "\"" + (prefixLast && i == words.count - 1 ? "*" : "")
        }.joined(separator: " AND ")
    }

    /// The form of a text in the FTS index: apostrophes dropped ("Ender's" → "Enders", so "enders
    /// game" finds it) and a lone "&" spelled "and" ("Angels & Demons").
    package static func indexed(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text where ch != "'" && ch != "\u{2019}" { out.append(ch) }
        return out.replacingOccurrences(of: " & ", with: " and ")
    }
}
