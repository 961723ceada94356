import Testing

@testable import BooksTrackCatalog

/// The pure parts of forgiving search: the bounded edit distance, the choice of corrections over a
/// given vocabulary, and how a query names an author. No catalog, no I/O.
@Suite(.onWorkThreads) struct SpellingCorrectorTests {
    @Test func editDistanceCountsTranspositionsAsOneAndStopsAtTheBound() {
        #expect(EditDistance.bounded("tolkein", "tolkien", 2) == 1)
        #expect(EditDistance.bounded("gmes", "games", 1) == 1)
        #expect(EditDistance.bounded("kitten", "sitting", 3) == 3)
        #expect(EditDistance.bounded("kitten", "sitting", 2) == nil)
        #expect(EditDistance.bounded("dune", "dune", 0) == 0)
        #expect(EditDistance.bounded("", "abc", 3) == 3)
        #expect(EditDistance.bounded("", "abc", 2) == nil)
        #expect(EditDistance.bounded("abc", "abcdef", 2) == nil, "lengths alone exceed the bound")
        #expect(EditDistance.bounded("ca", "abc", 3) == 3, "optimal string alignment: no edit of a transposed pair")
        #expect(EditDistance.bounded("misérables", "miserables", 1) == 1)
    }

    @Test func theAllowedDistanceGrowsWithTheWord() {
        #expect(SpellingCorrector.maxDistance(forLength: 2) == 0)
        #expect(SpellingCorrector.maxDistance(forLength: 3) == 1)
        #expect(SpellingCorrector.maxDistance(forLength: 5) == 1)
        #expect(SpellingCorrector.maxDistance(forLength: 6) == 2)
        #expect(SpellingCorrector.maxDistance(forLength: 12) == 2)
    }

    static let vocabulary = SpellingCorrector(frequencies: [
        "the": 900, "hunger": 12, "games": 40, "gems": 3, "tolkien": 25, "token": 2, "dune": 9, "king": 120,
        "kings": 30, "stephen": 150, "1984": 1,
    ])

    @Test func knownWordsAndPrefixesAreNotCorrected() {
        let v = Self.vocabulary
        #expect(v.count == 11)
        #expect(v.isKnown("games", asPrefix: false))
        #expect(!v.isKnown("gam", asPrefix: false))
        #expect(v.isKnown("gam", asPrefix: true))
        #expect(!v.isKnown("gmes", asPrefix: true))
        #expect(v.corrections(of: ["hunger", "gam"], lastIsPrefix: true).isEmpty)
        #expect(v.corrections(of: ["the", "hunger", "games"], lastIsPrefix: false).isEmpty)
    }

    @Test func candidatesAreNearestFirstThenMostFrequent() {
        let v = Self.vocabulary
        #expect(v.candidates(for: "gmes").map(\.word) == ["games", "gems"])
        #expect(v.candidates(for: "tolkein").first?.word == "tolkien")
        #expect(v.candidates(for: "kng").map(\.word) == ["king"])
        #expect(v.candidates(for: "qz").isEmpty, "two letters are never corrected")
        #expect(v.candidates(for: "1985").isEmpty, "numbers are never corrected")
        #expect(v.candidates(for: "zzzqqqxxy").isEmpty)
    }

    @Test func correctionsReplaceOnlyUnknownWordsBestFirst() {
        let v = Self.vocabulary
        #expect(
            v.corrections(of: ["hunger", "gmes"], lastIsPrefix: true) == [["hunger", "games"], ["hunger", "gems"]]
        )
        #expect(v.corrections(of: ["tolkein"], lastIsPrefix: true).first == ["tolkien"])
        #expect(v.corrections(of: ["stephen", "kng"], lastIsPrefix: false) == [["stephen", "king"]])
        // An unknown word without a candidate: nothing honest to offer.
        #expect(v.corrections(of: ["hunger", "xqzvw"], lastIsPrefix: true).isEmpty)
        // Too many unknown words: not a misspelling of the catalog.
        #expect(v.corrections(of: ["gmes", "gmes", "gmes", "gmes", "gmes"], lastIsPrefix: false).isEmpty)
        #expect(v.corrections(of: ["gmes", "gmes"], lastIsPrefix: false, limit: 3).count == 3)
    }

    @Test func initialsWrittenTogetherAreSetApart() {
        let v = SpellingCorrector(frequencies: ["j": 40, "k": 12, "r": 30, "rowling": 27, "tolkien": 25])
        #expect(v.initials(of: "jk") == "j k")
        #expect(v.initials(of: "jrr") == "j r r")
        #expect(v.initials(of: "jq") == nil, "q is not an initial here")
        #expect(v.initials(of: "jkrr") == nil)
        #expect(v.initials(of: "j1") == nil)
        #expect(v.corrections(of: ["jk", "rowling"], lastIsPrefix: true) == [["j k", "rowling"]])
    }

    @Test func aQueryNamesAnAuthorByTheSurname() {
        let king = ["Stephen King"]
        #expect(AuthorMention(queryWords: ["stephen", "king"], authors: king) == .wholeName)
        #expect(AuthorMention(queryWords: ["king"], authors: king) == .wholeName)
        #expect(AuthorMention(queryWords: ["stephen"], authors: king) == .none, "a first name names no one")
        #expect(
            AuthorMention(queryWords: ["the", "shining", "stephen", "king"], authors: king)
                == .surnameWith(titleWords: ["the", "shining"])
        )
        #expect(
            AuthorMention(queryWords: ["foundation", "asimov"], authors: ["Isaac Asimov"])
                == .surnameWith(titleWords: ["foundation"])
        )
        #expect(AuthorMention(queryWords: ["tolkien"], authors: ["J.R.R. Tolkien", "Alan Lee"]) == .wholeName)
        #expect(AuthorMention(queryWords: ["the", "hobbit"], authors: ["J.R.R. Tolkien"]) == .none)
        #expect(AuthorMention(queryWords: [], authors: king) == .none)
    }
}
