import Testing
@testable import BooksTrackEmbedding

/// `pieces` looks up nothing longer than the vocabulary's longest token: the longest pieces, a
/// `##` piece and the last line of a file without a final line break, are still found.
@Suite struct WordPiecePiecesTests {
    @Test func theLongestTokensAreStillFound() throws {
        let vocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "ab", "é", "##é", "##cdefgh", "abcdefghi"]
        let tokenizer = try WordPieceTokenizer(vocabulary: vocabulary.joined(separator: "\n"))
        #expect(tokenizer.longestToken == 9)
        #expect(tokenizer.pieces("abcdefgh") == [4, 7])
        #expect(tokenizer.pieces("abcdefghi") == [8])
        #expect(tokenizer.pieces("abcdefghé") == [4, 7, 6])
        #expect(tokenizer.pieces("ééé") == [5, 6, 6])
        #expect(tokenizer.pieces("abx") == [1])
        #expect(tokenizer.pieces(String(repeating: "é", count: 100)).count == 100)
        #expect(tokenizer.pieces(String(repeating: "é", count: 101)) == [1])
    }
}
