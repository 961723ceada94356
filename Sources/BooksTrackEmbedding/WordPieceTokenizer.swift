import Foundation

/// BERT's uncased WordPiece tokenizer, as all-MiniLM-L6-v2's `BertTokenizer` (do_lower_case,
/// tokenize_chinese_chars): text cleaned (control characters dropped, white space folded), CJK
/// ideographs split apart, lower-cased with accents stripped (NFD, marks dropped), split at white
/// space and around every punctuation character, then each word cut greedily into the longest
/// pieces of the vocabulary (`##` marks a piece inside a word; a word that cannot be cut, or longer
/// than 100 characters, is `[UNK]`). Ids are wrapped in `[CLS]` … `[SEP]`.
package struct WordPieceTokenizer: Sendable {
    package enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadable(String)
        case missingToken(String)

        package var description: String {
            switch self {
            case .unreadable(let path): return "cannot read the vocabulary \(path)"
            case .missingToken(let token): return "the vocabulary has no \(token)"
            }
        }
    }

    let vocabulary: Vocabulary
    let unknown: Int32
    let classify: Int32
    let separator: Int32
    /// The longest token's UTF-8 length (`##` included): no longer piece is looked up.
    let longestToken: Int
    static let maxWordCharacters = 100

    /// From `vocab.txt` (one token a line, id = line number).
    package init(vocabulary text: String) throws(LoadError) {
        try self.init(bytes: Array(text.utf8))
    }

    init(bytes: [UInt8]) throws(LoadError) {
        let vocabulary = Vocabulary(bytes: bytes)
        func id(_ token: String) throws(LoadError) -> Int32 {
            guard let id = vocabulary.id(token) else { throw .missingToken(token) }
            return id
        }
        self.vocabulary = vocabulary
        longestToken = vocabulary.longestLine
        unknown = try id("[UNK]")
        classify = try id("[CLS]")
        separator = try id("[SEP]")
    }

    package init(vocabularyAt url: URL) throws(LoadError) {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw .unreadable(url.path) }
        try self.init(bytes: [UInt8](data))
    }

    /// `[CLS]`, the pieces of `text` (at most `maxTokens` - 2), `[SEP]`.
    package func encode(_ text: String, maxTokens: Int = 128) -> [Int32] {
        var out: [Int32] = [classify]
        for word in Self.words(text) {
            for piece in pieces(word) {
                if out.count >= maxTokens - 1 { break }
                out.append(piece)
            }
        }
        out.append(separator)
        return out
    }

    /// The basic tokenizer's words: cleaned, lower-cased, accents stripped, punctuation apart.
    static func words(_ text: String) -> [String] {
        var spaced = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value == 0 || scalar.value == 0xFFFD { continue }
            if isWhitespace(scalar) {
                spaced.append(" ")
            } else if isControl(scalar) {
                continue
            } else if isCJK(scalar) {
                spaced.append(" ")
                spaced.append(scalar)
                spaced.append(" ")
            } else {
                spaced.append(scalar)
            }
        }
        var words: [String] = []
        // Split at the space scalars, as BERT's `text.split()`: split by Character, a space followed
        // by a combining mark (one grapheme) stayed inside a word (found by Fuzz/tokenizer).
        for token in spaced.split(separator: " ") {
            let folded = String(String.UnicodeScalarView(token)).lowercased().decomposedStringWithCanonicalMapping
                .unicodeScalars
                .filter { $0.value < 0x300 || $0.properties.generalCategory != .nonspacingMark }
            var current = String.UnicodeScalarView()
            for scalar in folded {
                if isPunctuation(scalar) {
                    if !current.isEmpty { words.append(String(current)) }
                    current = String.UnicodeScalarView()
                    words.append(String(scalar))
                } else {
                    current.append(scalar)
                }
            }
            if !current.isEmpty { words.append(String(current)) }
        }
        return words
    }

    /// Greedy longest-match-first pieces of one word. Candidates are the word's UTF-8 bytes
    /// between character boundaries (with `##` inside the word), looked up without a `String`
    /// each, and none longer than the vocabulary's longest token (it could not match): a junk word
    /// of 100 characters built and looked up 5,050 strings.
    func pieces(_ word: String) -> [Int32] {
        var boundaries: [Int] = []
        var offset = 0
        for character in word {
            boundaries.append(offset)
            offset += character.utf8.count
            if boundaries.count > Self.maxWordCharacters { return [unknown] }
        }
        boundaries.append(offset)
        let bytes = Array(word.utf8)
        let characters = boundaries.count - 1
        var out: [Int32] = []
        var candidate: [UInt8] = []
        candidate.reserveCapacity(longestToken)
        var start = 0
        while start < characters {
            let marker = start > 0 ? 2 : 0
            var end = characters
            while end > start, marker + boundaries[end] - boundaries[start] > longestToken { end -= 1 }
            var found: Int32?
            while start < end {
                candidate.removeAll(keepingCapacity: true)
                if marker > 0 { candidate.append(contentsOf: [UInt8(ascii: "#"), UInt8(ascii: "#")]) }
                candidate.append(contentsOf: bytes[boundaries[start]..<boundaries[end]])
                if let id = vocabulary.id(candidate) {
                    found = id
                    break
                }
                end -= 1
            }
            guard let id = found else { return [unknown] }
            out.append(id)
            start = end
        }
        return out
    }

    // ASCII is answered without the Unicode property look-ups (they are costly per scalar): no mark
    // is below U+0300; in ASCII the only space separator is the space, the controls are 0–31 and 127.
    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\t" || s == "\n" || s == "\r"
            || (s.value >= 0x80 && s.properties.generalCategory == .spaceSeparator)
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        if s.value < 0x80 { return s.value < 0x20 || s.value == 0x7F }
        switch s.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }

    static func isPunctuation(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if (33...47).contains(v) || (58...64).contains(v) || (91...96).contains(v) || (123...126).contains(v) {
            return true
        }
        if v < 0x80 { return false }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    static func isCJK(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x2A6DF).contains(v)
            || (0x2A700...0x2B73F).contains(v) || (0x2B740...0x2B81F).contains(v) || (0x2B820...0x2CEAF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0x2F800...0x2FA1F).contains(v)
    }
}
