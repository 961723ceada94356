import Foundation

/// Spelling tolerance over a vocabulary (the words of the catalog's titles, series and authors,
/// each with the number of books it appears in): the words of a query the vocabulary does not
/// know are replaced by known words within a small edit distance (`EditDistance`), nearest first,
/// then the most frequent; initials written together are set apart ("jk" → "j k"). Pure: the vocabulary is given; whether a correction finds books is the
/// caller's question (`SQLiteCatalog.corrected`), so no correction is offered that finds nothing.
package struct SpellingCorrector: Sendable {
    /// A known word and its letters (Unicode scalar values).
    struct Entry: Sendable {
        var word: String
        var scalars: [UInt32]
        var frequency: Int
    }

    /// Candidates kept per unknown word.
    package static let candidatesPerWord = 3
    /// A query with more unknown words than this is not corrected (it is not a misspelling of the catalog).
    package static let maxUnknownWords = 4

    /// How far a word of `length` letters may be from its correction: exact under 3 letters, one
    /// edit up to 5, two from 6 (the usual "auto" fuzziness of search engines).
    package static func maxDistance(forLength length: Int) -> Int {
        length < 3 ? 0 : length <= 5 ? 1 : 2
    }

    private let frequency: [String: Int]
    /// Every word, sorted (the last word of a query matches as a prefix).
    private let sorted: [String]
    /// The words by length in scalars.
    private let byLength: [Int: [Entry]]

    /// `frequencies`: each known word (in the index's form: lower case, diacritics folded) and the
    /// number of books it appears in.
    package init(frequencies: [String: Int]) {
        frequency = frequencies
        sorted = frequencies.keys.sorted()
        var byLength: [Int: [Entry]] = [:]
        for (word, count) in frequencies {
            let scalars = word.unicodeScalars.map(\.value)
            byLength[scalars.count, default: []].append(Entry(word: word, scalars: scalars, frequency: count))
        }
        self.byLength = byLength
    }

    /// The number of known words.
    package var count: Int { frequency.count }

    /// Whether `word` is known, or (`asPrefix`) begins a known word.
    package func isKnown(_ word: String, asPrefix: Bool) -> Bool {
        if frequency[word] != nil { return true }
        guard asPrefix else { return false }
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < word { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low].hasPrefix(word)
    }

    /// Known words within reach of `word` (`maxDistance`), nearest first, then the most frequent,
    /// then in alphabetical order; at most `limit`. Words with digits are never corrected.
    package func candidates(for word: String, limit: Int = candidatesPerWord) -> [(word: String, distance: Int)] {
        let scalars = word.unicodeScalars.map(\.value)
        let bound = Self.maxDistance(forLength: scalars.count)
        guard bound > 0, !word.contains(where: \.isNumber) else { return [] }
        var found: [(entry: Entry, distance: Int)] = []
        for length in (scalars.count - bound)...(scalars.count + bound) {
            for entry in byLength[length] ?? [] {
                if let distance = EditDistance.bounded(scalars, entry.scalars, bound) {
                    found.append((entry, distance))
                }
            }
        }
        found.sort {
            ($0.distance, -$0.entry.frequency, $0.entry.word) < ($1.distance, -$1.entry.frequency, $1.entry.word)
        }
        return found.prefix(limit).map { ($0.entry.word, $0.distance) }
    }

    /// Initials written together ("jk" for "J.K.", "jrr"): the letters apart ("j k"), one edit away,
    /// when the word has 2 or 3 letters and each letter is a known word (an initial in the index).
    package func initials(of word: String) -> String? {
        let letters = Array(word)
        guard (2...3).contains(letters.count), letters.allSatisfy(\.isLetter),
            letters.allSatisfy({ frequency[String($0)] != nil })
        else { return nil }
        return letters.map(String.init).joined(separator: " ")
    }

    /// The corrected forms of `words` to try, best first: every unknown word replaced by one of its
    /// candidates, the forms ordered by total distance, then by how frequent their replacements
    /// are. Empty when every word is known, when an unknown word has no candidate, or when more
    /// than `maxUnknownWords` are unknown. `lastIsPrefix`: the last word is known when it begins a
    /// known word (the search matches it as a prefix).
    package func corrections(of words: [String], lastIsPrefix: Bool, limit: Int = 8) -> [[String]] {
        var options: [(index: Int, choices: [(word: String, distance: Int)])] = []
        for (index, word) in words.enumerated()
        where !isKnown(word, asPrefix: lastIsPrefix && index == words.count - 1) {
            let choices = candidates(for: word) + (initials(of: word).map { [($0, 1)] } ?? [])
            guard !choices.isEmpty else { return [] }
            options.append((index, choices))
        }
        guard !options.isEmpty, options.count <= Self.maxUnknownWords else { return [] }
        var forms: [(words: [String], distance: Int, weight: Double)] = [(words, 0, 0)]
        for option in options {
            forms = forms.flatMap { form in
                option.choices.map { choice in
                    var replaced = form.words
                    replaced[option.index] = choice.word
                    let weight = log(Double(max(1, frequency[choice.word] ?? 1)))  // initials: 0
                    return (replaced, form.distance + choice.distance, form.weight + weight)
                }
            }
        }
        // A stable sort: equal forms keep the candidates' own order.
        let ordered = forms.enumerated().sorted { a, b in
            if a.element.distance != b.element.distance { return a.element.distance < b.element.distance }
            if a.element.weight != b.element.weight { return a.element.weight > b.element.weight }
            return a.offset < b.offset
        }
        return ordered.prefix(limit).map(\.element.words)
    }
}
