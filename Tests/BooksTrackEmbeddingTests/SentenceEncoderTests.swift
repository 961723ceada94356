import Foundation
import Testing

@testable import BooksTrackEmbedding

/// Fixtures/reference.json: token ids from Hugging Face `tokenizers` over the model's tokenizer.json
/// and vectors from a NumPy forward pass (scripts/make-embedding-reference), made once from the same
/// weights. Needs the model files (`scripts/setup --model`); without them the tests are skipped.
struct EmbeddingReference: Decodable {
    struct Case: Decodable { var text: String; var ids: [Int32]; var vector: [Float] }
    var cases: [Case]

    static func load() throws -> EmbeddingReference {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/reference.json")
        return try JSONDecoder().decode(EmbeddingReference.self, from: Data(contentsOf: url))
    }
}

@Suite(.enabled(if: ModelLocation.installed() != nil, "the model files are not installed (scripts/setup --model)"))
struct SentenceEncoderTests {
    static let encoder = Result { () throws -> SentenceEncoder in
        guard let dir = ModelLocation.installed() else { throw SafeTensors.LoadError.unreadable("model directory") }
        return try SentenceEncoder(directory: dir)
    }

    @Test func tokenizerMatchesTheReference() throws {
        let tokenizer = try Self.encoder.get().tokenizer
        for item in try EmbeddingReference.load().cases {
            #expect(tokenizer.encode(item.text) == item.ids, "\(item.text)")
        }
    }

    @Test func forwardPassMatchesTheReference() throws {
        let encoder = try Self.encoder.get()
        for item in try EmbeddingReference.load().cases {
            let vector = encoder.encode(ids: item.ids)
            #expect(vector.count == SentenceEncoder.dimension)
            let cosine = zip(vector, item.vector).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            let worst = zip(vector, item.vector).map { abs($0 - $1) }.max() ?? 1
            #expect(cosine > 0.9999 && worst < 1e-4, "\(item.text): cosine \(cosine), worst \(worst)")
        }
        // Figures only (a debug build): load and one short query.
        let clock = ContinuousClock()
        guard let dir = ModelLocation.installed() else { return }
        let load = try clock.measure { _ = try SentenceEncoder(directory: dir) }
        let query = clock.measure { for _ in 0..<10 { _ = encoder.encode("a boy wizard at a school of magic") } }
        print("[embedding] load \(load), one 10-token query \(query / 10) (debug build)")
    }
}

@Suite struct WordPieceTests {
    @Test func basicTokenizationAndPieces() throws {
        let vocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##believ", "##ably", "les", "mis", "##era", "##bles", "!", "—", "naive"]
        let tokenizer = try WordPieceTokenizer(vocabulary: vocabulary.joined(separator: "\n") + "\n")
        #expect(WordPieceTokenizer.words("Les Misérables—naïve!\u{0007}") == ["les", "miserables", "—", "naive", "!"])
        #expect(tokenizer.encode("Unbelievably Les Misérables!") == [2, 4, 5, 6, 7, 8, 9, 10, 11, 3])
        #expect(tokenizer.encode("zzz") == [2, 1, 3])
        #expect(throws: WordPieceTokenizer.LoadError.missingToken("[UNK]")) { try WordPieceTokenizer(vocabulary: "a\n") }
    }

    /// A space followed by a combining mark is one Character but still splits words, as BERT's
    /// `text.split()` does (the mark is then dropped with the accents); it stayed inside one word
    /// (Fuzz/tokenizer; its input is Fuzz/tokenizer/corpus/crash-space-then-mark).
    @Test func aSpaceBeforeACombiningMarkStillSplits() throws {
        let vocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "les", "naive"]
        let tokenizer = try WordPieceTokenizer(vocabulary: vocabulary.joined(separator: "\n") + "\n")
        #expect(WordPieceTokenizer.words("les \u{301}naive") == ["les", "naive"])
        #expect(tokenizer.encode("les \u{305}naive") == [2, 4, 5, 3])
    }
}
