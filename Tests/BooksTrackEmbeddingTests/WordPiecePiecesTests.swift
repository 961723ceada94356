import TestSupport
import Testing

@testable import BooksTrackEmbedding

/// `pieces` looks up nothing longer than the vocabulary's longest token: the longest pieces, a
/// `##` piece and the last line of a file without a final line break, are still found.
@Suite(.onWorkThreads) struct WordPiecePiecesTests {
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

/// The vocabulary's lines: id = line number, `\r\n` ends a line as `\n` does, the first of a
/// repeated token wins, a last line without a line break counts, and empty lines take an id.
@Suite(.onWorkThreads) struct VocabularyLinesTests {
    @Test func linesAndIds() {
        let vocabulary = Vocabulary(bytes: Array("[PAD]\r\nab\n\nab\r\nlast".utf8))
        #expect(vocabulary.id("[PAD]") == 0)
        #expect(vocabulary.id("ab") == 1)
        #expect(vocabulary.id("last") == 4)
        #expect(vocabulary.id("ab\r") == nil)
        #expect(vocabulary.id("") == nil)
        #expect(vocabulary.longestLine == 6)  // "[PAD]\r"
    }

    @Test func emptyAndBreakOnlyFiles() {
        #expect(Vocabulary(bytes: []).id("a") == nil)
        #expect(Vocabulary(bytes: []).longestLine == 0)
        let breaks = Vocabulary(bytes: Array("\n\na\n".utf8))
        #expect(breaks.id("a") == 2)
        #expect(breaks.longestLine == 1)
    }
}
