import Foundation

/// Normalisation for matching: books without an ISBN by title + author, works across editions.
enum TextKey {
    /// Lower-cased, diacritics folded, a trailing "(Series, #n)" and punctuation removed, spaces collapsed.
    static func title(_ raw: String) -> String {
        var text = raw
        if let suffix = seriesSuffixRange(raw) { text = String(raw[..<suffix.lowerBound]) }
        return words(text).joined(separator: " ")
    }

    /// Letters and digits only, lower-cased, diacritics folded ("J. K. Rowling" = "J.K. Rowling").
    static func author(_ raw: String) -> String { words(raw).joined() }

    static func words(_ raw: String) -> [String] {
        let folded = raw.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        var out: [String] = []
        var current = ""
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if scalar == "'" || scalar == "\u{2019}" {
                continue
            } else if !current.isEmpty {
                out.append(current)
                current = ""
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// "The Hunger Games (The Hunger Games, #1)" → ("The Hunger Games", 1).
    static func seriesSuffix(of title: String) -> (name: String, number: Double?)? {
        guard let range = seriesSuffixRange(title) else { return nil }
        let inner = title[range].dropFirst().dropLast()
        guard let hash = inner.range(of: "#", options: .backwards) else { return nil }
        var name = inner[..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
        if name.hasSuffix(",") { name.removeLast() }
        name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        let numberText = inner[hash.upperBound...].trimmingCharacters(in: .whitespaces)
        return (name, Double(numberText.split(separator: "-").first.map(String.init) ?? numberText))
    }

    /// The range of a trailing "( … #… )" in a title.
    private static func seriesSuffixRange(_ title: String) -> Range<String.Index>? {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(")"), let open = trimmed.range(of: " (", options: .backwards) else { return nil }
        let inner = trimmed[open.upperBound...]
        guard inner.contains("#"), open.lowerBound > trimmed.startIndex else { return nil }
        guard let start = title.range(of: String(trimmed[open.lowerBound...]), options: .backwards) else { return nil }
        return title.index(after: start.lowerBound)..<start.upperBound
    }
}
