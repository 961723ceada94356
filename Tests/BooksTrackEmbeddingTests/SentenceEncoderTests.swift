import Foundation
import Synchronization
import TestSupport
import Testing

@testable import BooksTrackEmbedding

/// Fixtures/reference.json: token ids from Hugging Face `tokenizers` over the model's tokenizer.json
/// and vectors from a NumPy forward pass (scripts/make-embedding-reference), made once from the same
/// weights. Needs the model files, which `scripts/setup` installs (CI runs it): without them the
/// tests fail and say so, they are never skipped.
struct EmbeddingReference: Decodable {
    struct Case: Decodable {
        var text: String
        var ids: [Int32]
        var vector: [Float]
    }
    var cases: [Case]

    static func load() throws -> EmbeddingReference {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/reference.json"
        )
        return try JSONDecoder().decode(EmbeddingReference.self, from: Data(contentsOf: url))
    }
}

@Suite(.onWorkThreads) struct SentenceEncoderTests {
    static let encoder = SentenceEncoder.shared()

    @Test func tokenizerMatchesTheReference() throws {
        let tokenizer = try Self.encoder.get().tokenizer
        for item in try EmbeddingReference.load().cases {
            #expect(tokenizer.encode(item.text) == item.ids, "\(item.text)")
        }
    }

    /// A pass over any number of tokens multiplies a multiple of 4 rows, never fewer than the tokens
    /// (the padding itself is checked by `forwardPassMatchesTheReference`: 10, 11, 15 and 23 tokens).
    @Test func paddedRowsAreTheNextMultipleOfFour() {
        let padded: [Int] = (1...9).map { SentenceEncoder.paddedRows($0) }
        #expect(padded == [4, 4, 4, 4, 8, 8, 8, 8, 12])
        #expect(SentenceEncoder.paddedRows(512) == 512)
        #expect(SentenceEncoder.paddedRows(11) == 12)
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
        let dir = try #require(ModelLocation.installed())
        let load = try clock.measure { _ = try SentenceEncoder(directory: dir, blas: OpenBLAS.load().get()) }
        let query = clock.measure { for _ in 0..<10 { _ = encoder.encode("a boy wizard at a school of magic") } }
        print("[embedding] load \(load), one 10-token query \(query / 10) (debug build)")
    }

    /// Queries embedded at once from several threads (a server's requests share one encoder and
    /// OpenBLAS, loaded lazily): each vector is the one the query embedded alone gets, bit for bit.
    @Test func concurrentQueriesGetTheVectorsOfSequentialOnes() throws {
        let encoder = try Self.encoder.get()
        let texts =
            try EmbeddingReference.load().cases.map(\.text) + [
                "a boy wizard at a school of magic", "teenagers fight to the death",
            ]
        let alone = texts.map { encoder.encode($0) }
        let together = Mutex([[Float]](repeating: [], count: texts.count * 4))
        DispatchQueue.concurrentPerform(iterations: texts.count * 4) { index in
            let vector = encoder.encode(texts[index % texts.count])
            together.withLock { $0[index] = vector }
        }
        let vectors = together.withLock { $0 }
        for (index, vector) in vectors.enumerated() {
            #expect(vector == alone[index % texts.count], "\(texts[index % texts.count])")
        }
    }
}

@Suite(.onWorkThreads) struct WordPieceTests {
    @Test func basicTokenizationAndPieces() throws {
        let vocabulary = [
            "[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##believ", "##ably", "les", "mis", "##era", "##bles", "!", "—",
            "naive",
        ]
        let tokenizer = try WordPieceTokenizer(vocabulary: vocabulary.joined(separator: "\n") + "\n")
        #expect(WordPieceTokenizer.words("Les Misérables—naïve!\u{0007}") == ["les", "miserables", "—", "naive", "!"])
        #expect(tokenizer.encode("Unbelievably Les Misérables!") == [2, 4, 5, 6, 7, 8, 9, 10, 11, 3])
        #expect(tokenizer.encode("zzz") == [2, 1, 3])
        #expect(throws: WordPieceTokenizer.LoadError.missingToken("[UNK]")) {
            try WordPieceTokenizer(vocabulary: "a\n")
        }
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

@Suite(.onWorkThreads) struct QuantizedVectorsTests {
    /// Round trip through the file format: ids and stamp as written, each vector back within the
    /// int8 step and unit length, cosines from the matrix; a cut or foreign file is refused.
    @Test func roundTripAndCosines() throws {
        var rng = SystemRandomNumberGenerator()
        let d = 16
        let vectors: [[Float]] = (0..<5).map { _ in
            let raw = (0..<d).map { _ in Float.random(in: -1...1, using: &rng) }
            let norm = raw.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return raw.map { $0 / norm }
        }
        let stamp = QuantizedVectors.Stamp(
            model: "m",
            modelSHA256: "ab",
            modelBytes: 3,
            catalog: "c",
            text: "t",
            count: 5,
            dimension: d
        )
        let data = QuantizedVectors.encode(stamp: stamp, ids: [7, 3, 9, 1, 2], vectors: vectors)
        #expect(data.count == 8 + 4 + (try JSONEncoder.sorted.encode(stamp)).count + 5 * 4 + 5 * 4 + 5 * d)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("qv-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        try data.write(to: url)
        let read = try QuantizedVectors(contentsOf: url)
        #expect(read.stamp == stamp && read.ids == [7, 3, 9, 1, 2])
        #expect(try QuantizedVectors.stamp(at: url) == stamp)
        for (row, vector) in vectors.enumerated() {
            let back = read.vector(at: row)
            let norm = back.reduce(0) { $0 + $1 * $1 }.squareRoot()
            #expect(abs(norm - 1) < 1e-5)
            #expect(zip(back, vector).allSatisfy { abs($0 - $1) < 0.02 }, "row \(row)")
        }
        let cosines = read.cosines(vectors[2])
        #expect(cosines.count == 5 && abs(cosines[2] - 1) < 0.01)
        for row in 0..<5 {
            let exact = zip(vectors[row], vectors[2]).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            #expect(abs(cosines[row] - exact) < 0.02, "row \(row): \(cosines[row]) against \(exact)")
        }
        #expect(cosines.indices.max { cosines[$0] < cosines[$1] } == 2)

        try data.prefix(data.count - 1).write(to: url)
        #expect(throws: QuantizedVectors.FormatError.malformed("size")) { try QuantizedVectors(contentsOf: url) }
        try Data("not vectors at all".utf8).write(to: url)
        #expect(throws: QuantizedVectors.FormatError.malformed("not a book vectors file")) {
            try QuantizedVectors(contentsOf: url)
        }
    }

    /// A missing model is one sentence that names the setup command and the directory looked in.
    @Test func missingModelSaysHowToGetIt() {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-model-\(UUID().uuidString)")
        guard case .failure(let reason) = SentenceEncoder.shared(environment: ["BTS_MODEL_DIR": empty.path]) else {
            Issue.record("an empty directory loaded a model")
            return
        }
        #expect(reason == .notInstalled(directory: empty.path))
        #expect(reason.description.contains("scripts/setup") && reason.description.contains(empty.path))
        #expect(!reason.description.contains("\n"))
    }

    /// OpenBLAS is loaded at first use, not linked: a library that cannot be loaded is one sentence
    /// that names it and the setup command, and the same model then loads with the real library.
    @Test func missingBLASSaysHowToGetIt() throws {
        let model = try #require(ModelLocation.installed(), "the model is not installed: run scripts/setup")
        let bogus = "/nonexistent/libopenblas-\(UUID().uuidString).so.0"
        let environment = ["BTS_MODEL_DIR": model.path, OpenBLAS.libraryVariable: bogus]
        guard case .failure(let reason) = SentenceEncoder.shared(environment: environment) else {
            Issue.record("a missing BLAS library loaded the encoder")
            return
        }
        guard case .blasMissing(let library, _) = reason else {
            Issue.record("not a missing library: \(reason)")
            return
        }
        #expect(library == bogus)
        #expect(
            reason.description.hasPrefix("semantic search needs the BLAS library \(bogus), which cannot be loaded (")
        )
        #expect(reason.description.contains("run scripts/setup") && !reason.description.contains("\n"))
        #expect(throws: Never.self) { try SentenceEncoder.shared(environment: ["BTS_MODEL_DIR": model.path]).get() }
    }
}
