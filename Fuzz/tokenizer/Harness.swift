import Foundation

// Fuzz target: the sentence encoder's WordPiece tokenizer (BooksTrackEmbedding). Any text encodes
// to [CLS] … [SEP] within the token budget, every id from the vocabulary; its words are never
// empty and hold no white space. The vocabulary is the real model's when scripts/fuzz finds it
// (BTS_FUZZ_VOCAB), else the small fixture Fuzz/tokenizer/vocab.txt.
let vocabularyPath = ProcessInfo.processInfo.environment["BTS_FUZZ_VOCAB"] ?? "Fuzz/tokenizer/vocab.txt"
let vocabularyText =
    (FileManager.default.contents(atPath: vocabularyPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
let vocabularySize = vocabularyText.split(separator: "\n", omittingEmptySubsequences: false).count
let tokenizer: WordPieceTokenizer = {
    do {
        return try WordPieceTokenizer(vocabulary: vocabularyText)
    } catch {
        fatalError("fuzz set-up: the vocabulary \(vocabularyPath) does not load: \(error)")
    }
}()

func fuzzOne(_ bytes: [UInt8]) {
    let budget = 2 + Int(bytes.first ?? 126) % 255
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let ids = tokenizer.encode(text, maxTokens: budget)
    invariant(ids.count >= 2 && ids.count <= budget, "\(ids.count) ids for a budget of \(budget)")
    invariant(ids.first == tokenizer.classify && ids.last == tokenizer.separator, "not wrapped in [CLS] … [SEP]")
    invariant(ids.allSatisfy { $0 >= 0 && Int($0) < vocabularySize }, "an id outside the vocabulary")
    for word in WordPieceTokenizer.words(text) {
        invariant(!word.isEmpty, "an empty word")
        invariant(!word.unicodeScalars.contains(where: WordPieceTokenizer.isWhitespace), "a word with white space")
    }
    invariant(tokenizer.encode(text, maxTokens: budget) == ids, "encoding twice differs")
}
