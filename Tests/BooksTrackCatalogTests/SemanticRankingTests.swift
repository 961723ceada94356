import Foundation
import Testing

@testable import BooksTrackCatalog

/// The arithmetic of `semantic` and `hybrid`, without the model, the vectors or a database.
@Suite struct SemanticRankingTests {
    @Test func popularityPriorIsLogRatingsOverTheMostRated() {
        let prior = SemanticRanking.popularity(ratingsCounts: [0, 9, 99, -5])
        #expect(prior[0] == 0 && prior[3] == 0)
        #expect(prior[2] == 1)
        #expect(abs(prior[1] - Float(log1p(9.0) / log1p(99.0))) < 1e-6)
        #expect(SemanticRanking.popularity(ratingsCounts: [0, 0]) == [0, 0])
        #expect(SemanticRanking.popularity(ratingsCounts: []).isEmpty)
    }

    @Test func scoreBlendsCosineWithThePriorWithinZeroToOne() {
        let w = SemanticRanking.popularityWeight
        #expect(abs(SemanticRanking.score(0.5, popularity: 1) - (0.5 * (1 - w) + w)) < 1e-6)
        #expect(SemanticRanking.score(-1, popularity: 0) == 0)
        #expect(SemanticRanking.score(2, popularity: 1) == 1)
        // Rows past the priors keep their cosine.
        let scores = SemanticRanking.scores(cosines: [0.5, 0.25, 0.75], popularity: [0, 1])
        #expect(scores[0] == SemanticRanking.score(0.5, popularity: 0))
        #expect(scores[1] == SemanticRanking.score(0.25, popularity: 1))
        #expect(scores[2] == 0.75)
    }

    @Test func topKeepsThePositiveBestFirstWithTheirIDs() {
        let ranked = SemanticRanking.top([0.2, 0, 0.9, 0.5, -0.1], ids: [10, 11, 12, 13, 14], k: 4)
        #expect(ranked.map(\.id) == [12, 13, 10])
        #expect(ranked.map(\.score) == [0.9, 0.5, 0.2])
        #expect(SemanticRanking.top([0.2, 0.9], ids: [1, 2], k: 1).map(\.id) == [2])
    }

    @Test func textScoresFallEvenlyFromOne() {
        #expect(SemanticRanking.textScores(rankedIDs: [7, 3, 9, 1]) == [7: 1, 3: 0.75, 9: 0.5, 1: 0.25])
        #expect(SemanticRanking.textScores(rankedIDs: []).isEmpty)
    }

    /// Text-only rows join the semantic pool; a row found only semantically gets no text share;
    /// the page starts after `offset`, drops zero scores and caps at 1.
    @Test func hybridBlendsHalfAndHalfOverBothCandidateSets() {
        let semantic: [Float] = [0.8, 0.1, 0.6, 0, 0.4]
        let text: [Int: Float] = [1: 1, 3: 0.5]
        let all = SemanticRanking.hybrid(semantic: semantic, textByRow: text, pool: 2, offset: 0, limit: 10)
        // Pool: rows 0 and 2 semantically, rows 1 and 3 by text; row 4 is in neither.
        #expect(all.map(\.index) == [1, 0, 2, 3])
        let expected: [Float] = [0.55, 0.4, 0.3, 0.25]
        #expect(zip(all.map(\.score), expected).allSatisfy { abs($0 - $1) < 1e-6 })
        let page = SemanticRanking.hybrid(semantic: semantic, textByRow: text, pool: 2, offset: 1, limit: 2)
        #expect(page.map(\.index) == [0, 2])
        let capped = SemanticRanking.hybrid(semantic: [3], textByRow: [0: 1], pool: 1, offset: 0, limit: 1)
        #expect(capped.map(\.score) == [1])
        #expect(SemanticRanking.hybrid(semantic: [0, 0], textByRow: [:], pool: 2, offset: 0, limit: 2).isEmpty)
    }
}
