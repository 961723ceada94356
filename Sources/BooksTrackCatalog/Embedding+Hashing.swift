import Foundation

/// A deterministic, dependency-free text embedding for the catalog ("feature hashing").
///
/// Each book (or query) becomes a bag of weighted string features, each hashed with 64-bit FNV-1a
/// (stable across processes and platforms, unlike Swift's seeded `Hasher`) into one of `dimension`
/// buckets with a sign taken from another hash bit; the vector is then L2-normalized, so a dot
/// product is a cosine. Features of a book:
/// - `w:` word tokens of the title (series suffix removed) and original title — lower-cased,
///   diacritics folded, apostrophes dropped; stop words weigh 0.15 instead of 1;
/// - `g:` character 3-grams of each word padded with `^`/`$` (typo tolerance: "poter" ~ "potter");
/// - `a:` author name tokens (first author 1.0, co-authors 0.4), `A:` the full primary author, and
///   the primary author's tokens also as weak words (so a misspelt surname still matches by 3-grams);
/// - `b:` adjacent pairs of content words of the title (phrase evidence);
/// - `s:` series name tokens, `s2:` their adjacent pairs and `S:` the whole series name (strong:
///   series mates are close);
/// - `d:` decade, `e:` era, `l:` language (weak context).
/// A query uses `w:` and `g:` features of its words and also matches each word as an author
/// (`a:`) and series (`s:`) token, and its adjacent content-word pairs as `b:` and `s2:`, so
/// "books by tolkien" reaches Tolkien's books and "wheel of time" the Wheel of Time series.
package enum HashingEmbedding {
    /// Vector length.
    package static let dimension = 768
    /// Bumped whenever features or weights change (part of the database cache key).
    package static let version = 5

    /// Words carrying little meaning in titles and queries.
    static let stopWords: Set<String> = [
        "a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "from", "by", "with", "about",
        "is", "are", "be", "as", "it", "its", "into", "vol", "volume", "book", "books", "novel", "novels",
        "story", "stories", "series", "part", "edition", "me", "my", "i", "you", "your", "we", "our", "what",
        "who", "some", "any", "like", "find", "show", "good", "best", "le", "la", "les", "el", "de", "der", "die",
    ]

    /// Buckets per feature.
    static let probes = 2

    /// Re-mixes a hash for the next probe (FNV-1a of its 8 bytes).
    static func fnv1a64Continue(_ h: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<8 {
            hash ^= (h >> (8 * UInt64(i))) & 0xff
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// 64-bit FNV-1a over UTF-8 bytes.
    package static func fnv1a64(_ s: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in s.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Lower-cased, diacritic-folded word tokens (letters and digits; apostrophes removed).
    package static func tokens(_ text: String) -> [String] {
        // ASCII fast path: folding is only needed (and costly) for non-ASCII text.
        let folded =
            text.utf8.allSatisfy { $0 < 0x80 }
            ? text.lowercased() : text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        var out: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if scalar == "'" || scalar == "\u{2019}" { continue }
            let isWordScalar: Bool
            if scalar.isASCII {
                let v = scalar.value
                isWordScalar = (v >= 0x30 && v <= 0x39) || (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A)
            } else {
                isWordScalar = CharacterSet.alphanumerics.contains(scalar)
            }
            if isWordScalar {
                current.append(scalar)
            } else if !current.isEmpty {
                out.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { out.append(String(current)) }
        return out
    }

    /// Accumulates weighted features into a vector.
    struct Accumulator {
        var values = [Float](repeating: 0, count: HashingEmbedding.dimension)

        /// Each feature lands in `probes` buckets (weight / √probes each), so one unlucky
        /// collision cannot dominate a cosine.
        mutating func add(_ feature: String, _ weight: Float) {
            var h = HashingEmbedding.fnv1a64(feature)
            let w = weight / Float(HashingEmbedding.probes).squareRoot()
            for _ in 0..<HashingEmbedding.probes {
                let bucket = Int((h >> 1) % UInt64(HashingEmbedding.dimension))
                let sign: Float = (h & 1) == 0 ? 1 : -1
                values[bucket] += sign * w
                h = HashingEmbedding.fnv1a64Continue(h)
            }
        }

        mutating func addWords(_ words: [String], weight: Float, trigramWeight: Float) {
            for w in words {
                let stop = HashingEmbedding.stopWords.contains(w)
                add("w:" + w, stop ? weight * 0.15 : weight)
                if stop { continue }
                let grams = HashingEmbedding.trigrams(w)
                let per = grams.isEmpty ? 0 : trigramWeight / Float(grams.count).squareRoot()
                for g in grams { add("g:" + g, per) }
            }
        }

        /// Adjacent pairs of `words` (phrase evidence: "wheel time", "percy jackson").
        mutating func addBigrams(_ prefix: String, _ words: [String], weight: Float) {
            guard words.count >= 2 else { return }
            for i in 0..<(words.count - 1) { add(prefix + words[i] + " " + words[i + 1], weight) }
        }

        func normalized() -> [Float] {
            var norm: Float = 0
            for v in values { norm += v * v }
            guard norm > 0 else { return values }
            let inv = 1 / norm.squareRoot()
            return values.map { $0 * inv }
        }
    }

    /// Words that are neither stop words nor single characters.
    static func content(_ words: [String]) -> [String] {
        words.filter { !stopWords.contains($0) && $0.count > 1 }
    }

    /// Character 3-grams of `^word$` (words shorter than 3 letters give none).
    static func trigrams(_ word: String) -> [String] {
        let chars = Array(word)
        guard chars.count >= 3 else { return [] }
        let padded = ["^"] + chars.map(String.init) + ["$"]
        var out: [String] = []
        out.reserveCapacity(padded.count - 2)
        for i in 0..<(padded.count - 2) { out.append(padded[i] + padded[i + 1] + padded[i + 2]) }
        return out
    }

    /// The embedding of a catalog book.
    package static func embed(_ book: CatalogBook) -> [Float] {
        var acc = Accumulator()
        let base = CatalogFieldCleaning.series(inTitle: book.title).base
        let titleWords = tokens(base)
        acc.addWords(titleWords, weight: 1.0, trigramWeight: 0.6)
        acc.addBigrams("b:", content(titleWords), weight: 0.5)
        if let original = book.originalTitle {
            let extra = tokens(original).filter { !titleWords.contains($0) }
            acc.addWords(extra, weight: 0.6, trigramWeight: 0.35)
        }
        for (i, author) in book.authors.prefix(4).enumerated() {
            let w: Float = i == 0 ? 1.0 : 0.4
            for t in tokens(author) where t.count > 1 {
                acc.add("a:" + t, w)
                if i == 0 { acc.addWords([t], weight: 0.35, trigramWeight: 0.2) }
            }
            if i == 0 { acc.add("A:" + tokens(author).joined(separator: " "), 1.0) }
        }
        if let series = book.series {
            let seriesWords = content(tokens(series))
            for t in seriesWords { acc.add("s:" + t, 1.2) }
            acc.addBigrams("s2:", seriesWords, weight: 0.8)
            acc.add("S:" + seriesWords.joined(separator: " "), 2.0)
        }
        if let year = book.year {
            acc.add("d:\(Int((Double(year) / 10).rounded(.down)) * 10)", 0.35)
            acc.add("e:" + era(year), 0.3)
        }
        if let language = book.language { acc.add("l:" + language, 0.25) }
        return acc.normalized()
    }

    /// The embedding of a free-text query, comparable with `embed(_: CatalogBook)`.
    package static func embed(query: String) -> [Float] {
        var acc = Accumulator()
        let words = tokens(String(query.prefix(400)))
        acc.addWords(words, weight: 1.0, trigramWeight: 0.6)
        let content = content(words)
        acc.addBigrams("b:", content, weight: 0.5)
        acc.addBigrams("s2:", content, weight: 0.6)
        for t in content {
            acc.add("a:" + t, 0.8)
            acc.add("s:" + t, 0.8)
        }
        if content.count >= 2 {
            acc.add("A:" + content.joined(separator: " "), 0.8)
            acc.add("S:" + content.joined(separator: " "), 0.8)
        }
        if let first = content.first, content.count == 1 { acc.add("S:" + first, 0.8) }
        for t in words {
            if let decade = decadeWord(t) { acc.add("d:\(decade)", 0.8) }
        }
        return acc.normalized()
    }

    static func era(_ year: Int) -> String {
        switch year {
        case ..<500: return "ancient"
        case ..<1500: return "medieval"
        case ..<1800: return "early-modern"
        case ..<1900: return "19th"
        case ..<1950: return "early-20th"
        case ..<2000: return "late-20th"
        default: return "21st"
        }
    }

    /// "1990s" → 1990 (a bare year such as "1984" is a title word, not a decade).
    static func decadeWord(_ word: String) -> Int? {
        guard word.hasSuffix("s") else { return nil }
        var digits = word
        digits.removeLast()
        guard digits.count == 4, let year = Int(digits), (1000...2100).contains(year) else { return nil }
        return year / 10 * 10
    }
}
