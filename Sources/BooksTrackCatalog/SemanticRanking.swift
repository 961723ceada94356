import Foundation

/// The arithmetic of `semantic` and `hybrid`, with no I/O: the popularity prior, the semantic score
/// (cosine blended with the prior), the text share of a hybrid score and the ranking of both.
enum SemanticRanking {
    /// Weight of the popularity prior in the semantic score (`score`), chosen on the development set
    /// `meaning-dev.json` (docs/meaning.md): the best hit@10 among the weights whose answers stay
    /// varied (no book in more than a fifth of the 40 queries' top 10s).
    static let popularityWeight: Float = 0.3

    /// The popularity prior of each book: log(1 + ratings) / log(1 + the most ratings), in 0…1.
    static func popularity(ratingsCounts: [Int]) -> [Float] {
        let maxLog = log1p(Double(ratingsCounts.max() ?? 1))
        return ratingsCounts.map { Float(maxLog > 0 ? log1p(Double(max(0, $0))) / maxLog : 0) }
    }

    /// Semantic score for the cosine `cosine` of a book with popularity prior `popularity`, in 0…1:
    /// `(1 - w) × cosine + w × popularity`.
    @inline(__always)
    static func score(_ cosine: Float, popularity: Float) -> Float {
        min(1, max(0, cosine * (1 - popularityWeight) + popularityWeight * popularity))
    }

    /// The popularity weight of title-word hashing (`titleWordScore`), the search before the model.
    static let titleWordPopularityWeight: Float = 0.06

    /// The title-word score as it ranked: `cosine × (1 - w) + w × popularity × √cosine`, in 0…1.
    static func titleWordScore(_ cosine: Float, popularity: Float) -> Float {
        let w = titleWordPopularityWeight
        return min(1, max(0, cosine * (1 - w) + w * popularity * max(0, cosine).squareRoot()))
    }

    /// Each row's semantic score from its cosine and prior (rows past the priors keep their cosine).
    static func scores(cosines: [Float], popularity: [Float]) -> [Float] {
        var scores = cosines
        for row in 0..<min(scores.count, popularity.count) {
            scores[row] = score(scores[row], popularity: popularity[row])
        }
        return scores
    }

    /// The `k` best rows by score, as (id, score) with `ids[row]`, best first, positive scores only.
    static func top(_ scores: [Float], ids: [Int], k: Int) -> [(id: Int, score: Float)] {
        VectorIndex.topK(scores, k: k).filter { scores[$0] > 0 }.map { (id: ids[$0], score: scores[$0]) }
    }

    /// The text share of each book found by full-text search, `rankedIDs` best first:
    /// 1 for the first, falling evenly towards 0 for the last.
    static func textScores(rankedIDs: [Int]) -> [Int: Float] {
        var scores: [Int: Float] = [:]
        for (rank, id) in rankedIDs.enumerated() { scores[id] = 1 - Float(rank) / Float(max(rankedIDs.count, 1)) }
        return scores
    }

    /// The hybrid ranking after `offset`, up to `limit` rows: candidates are the `pool` best rows by
    /// semantic score and every row with a text share (`textByRow`); each scores 50/50 semantic and
    /// text (a row found only semantically gets no text share). Positive scores only, capped at 1.
    static func hybrid(
        semantic scores: [Float],
        textByRow: [Int: Float],
        pool: Int,
        offset: Int,
        limit: Int
    ) -> [(index: Int, score: Float)] {
        var candidates = Set(VectorIndex.topK(scores, k: pool))
        candidates.formUnion(textByRow.keys)
        var heap = BoundedMinHeap(capacity: offset + limit)
        for row in candidates {
            heap.offer(score: 0.5 * scores[row] + 0.5 * (textByRow[row] ?? 0), index: row)
        }
        return heap.sortedDescending().dropFirst(offset).filter { $0.score > 0 }.map {
            (index: $0.index, score: min(1, $0.score))
        }
    }
}
