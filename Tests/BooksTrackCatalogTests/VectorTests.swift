import BooksTrackContract
import BooksTrackSupport
import Foundation
import Testing

@testable import BooksTrackCatalog

/// Tests/BooksTrackCatalogTests/Fixtures/relevance.json: semantic queries, title-search queries
/// (canonical book first) and similar-book expectations, by goodbooks id.
struct RelevanceSet: Decodable {
    struct Query: Decodable {
        var q: String
        var expected: [Int]
    }
    struct Similar: Decodable {
        var id: Int
        var title: String
        var expected: [Int]
        var minHits: Int
    }
    var queries: [Query]
    var title: [Query]
    var similar: [Similar]

    static func load() throws -> RelevanceSet {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/relevance.json")
        return try JSONDecoder().decode(RelevanceSet.self, from: Data(contentsOf: url))
    }
}

@Suite(.onWorkThreads) struct VectorTests {
    @Test func fnvIsStableAndEmbeddingDeterministic() throws {
        #expect(HashingEmbedding.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(HashingEmbedding.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        let catalog = try SharedCatalog.get()
        let book = try #require(try catalog.book(id: 1))
        let v = HashingEmbedding.embed(book)
        #expect(v == HashingEmbedding.embed(book))
        #expect(v.count == HashingEmbedding.dimension)
        let norm = v.reduce(0) { $0 + $1 * $1 }
        #expect(abs(norm - 1) < 1e-4)
        // The stored vector is the one the function computes.
        #expect(try #require(try catalog.vectors.vector(ofID: 1)) == v)
        #expect(HashingEmbedding.tokens("Ender's Game: Misérables!") == ["enders", "game", "miserables"])
    }

    /// The sparse scan equals a plain dot product — and, bit for bit, the dense column scan it
    /// replaced (same terms in the same order; only exact zeros are skipped) — and a pooled buffer
    /// comes back zeroed.
    @Test func columnScanEqualsDotProducts() {
        var rng = SplitMix64(seed: 7)
        let dimension = 24
        let n = 37
        let rows = (0..<n).map { _ in
            (0..<dimension).map { _ in rng.next() % 3 == 0 ? Float(rng.next() % 200) / 100 - 1 : 0 }
        }
        var columns = [Float](repeating: 0, count: n * dimension)
        for r in 0..<n { for d in 0..<dimension { columns[d * n + r] = rows[r][d] } }
        let index = VectorIndex(dimension: dimension, ids: (0..<n).map { $0 + 100 }, columns: columns)
        let query = (0..<dimension).map { _ in rng.next() % 2 == 0 ? Float(rng.next() % 200) / 100 - 1 : 0 }
        var dense = [Float](repeating: 0, count: n)
        for d in 0..<dimension where query[d] != 0 {
            for r in 0..<n { dense[r] += query[d] * columns[d * n + r] }
        }
        for _ in 0..<3 {  // the second and third scans reuse the pooled buffer
            let got = index.cosines(query)
            #expect(got == dense)
            for r in 0..<n {
                let expected = zip(rows[r], query).reduce(Float(0)) { $0 + $1.0 * $1.1 }
                #expect(abs(got[r] - expected) < 1e-4)
            }
        }
        #expect(index.vector(ofID: 105) == rows[5])
        #expect(index.vector(ofID: 99) == nil)
        #expect(index.cosines([1, 2]) == [Float](repeating: 0, count: n))
    }

    @Test func topKMatchesAFullSort() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<50 {
            let n = Int(rng.next() % 300)
            let scores = (0..<n).map { _ in Float(rng.next() % 1000) / 100 }
            let k = Int(rng.next() % 40)
            let expected = Array(
                scores.indices.sorted { scores[$0] > scores[$1] || (scores[$0] == scores[$1] && $0 < $1) }.prefix(k)
            )
            #expect(VectorIndex.topK(scores, k: k) == expected)
        }
    }

    @Test func similarSanity() throws {
        let catalog = try SharedCatalog.get()
        let results = try #require(try catalog.similar(isbn13: "9780439023481", limit: 10))
        #expect(results.count == 10)
        #expect(!results.contains { $0.book.id == 1 })
        #expect(results.allSatisfy { (0...1).contains($0.score) })
        #expect(try catalog.similar(isbn13: "9780000000002", limit: 10) == nil)
    }

    @Test func hybridSanity() throws {
        let catalog = try SharedCatalog.get()
        let hits = try catalog.hybrid("harry potter chamber", limit: 10, offset: 0)
        #expect(hits.first?.book.id == 23)
        #expect(hits.allSatisfy { (0...1).contains($0.score) })
        let typo = try catalog.hybrid("harry poter", limit: 10, offset: 0)
        #expect(typo.contains { $0.book.series == "Harry Potter" })
    }

    /// Hit@1 and hit@10 (a query counts when the first result / any of its top 10 is an expected
    /// book) and recall@10 (share of all expected books found) of `semantic` over the relevance set.
    /// Floors are the measured values minus a small margin, so a regression fails. The first 44
    /// queries keep their original floor; the 12 added later include four no title, author or
    /// series answers ("a boy who lives under the stairs"), so the whole set has its own.
    @Test func semanticRelevance() throws {
        let catalog = try SharedCatalog.get()
        let set = try RelevanceSet.load()
        #expect(set.queries.count >= 50)
        var hits = 0
        var firstHits = 0
        var originalHits = 0
        var found = 0
        var expectedTotal = 0
        var misses: [String] = []
        for (index, query) in set.queries.enumerated() {
            let ranked = try catalog.semantic(query.q, limit: 10, offset: 0).map(\.book.id)
            let top = Set(ranked)
            let inTop = query.expected.filter(top.contains).count
            if inTop > 0 {
                hits += 1
                if index < Self.originalQueries { originalHits += 1 }
            } else {
                misses.append(query.q)
            }
            if let first = ranked.first, query.expected.contains(first) { firstHits += 1 }
            found += inTop
            expectedTotal += query.expected.count
        }
        let n = Double(set.queries.count)
        let hitAt10 = Double(hits) / n
        let recall = Double(found) / Double(expectedTotal)
        let originalHitAt10 = Double(originalHits) / Double(Self.originalQueries)
        print(
            String(
                format:
                    "[catalog] semantic hit@1 = %.3f (%d/%d), hit@10 = %.3f (%d/%d; first %d: %.3f), recall@10 = %.3f (%d/%d); misses: %@",
                Double(firstHits) / n,
                firstHits,
                set.queries.count,
                hitAt10,
                hits,
                set.queries.count,
                Self.originalQueries,
                originalHitAt10,
                recall,
                found,
                expectedTotal,
                misses.joined(separator: " | ")
            )
        )
        #expect(originalHitAt10 >= Self.hitAt10Floor)
        #expect(hitAt10 >= Self.wholeSetHitAt10Floor)
        #expect(recall >= Self.recallFloor)
    }

    /// Hybrid over the same set (printed, with its own floor).
    @Test func hybridRelevance() throws {
        let catalog = try SharedCatalog.get()
        let set = try RelevanceSet.load()
        var hits = 0
        for query in set.queries {
            let top = Set(try catalog.hybrid(query.q, limit: 10, offset: 0).map(\.book.id))
            if query.expected.contains(where: top.contains) { hits += 1 }
        }
        let hitAt10 = Double(hits) / Double(set.queries.count)
        print(String(format: "[catalog] hybrid hit@10 = %.3f (%d/%d)", hitAt10, hits, set.queries.count))
        #expect(hitAt10 >= Self.hybridHitAt10Floor)
    }

    @Test func similarBooksExpectations() throws {
        let catalog = try SharedCatalog.get()
        let set = try RelevanceSet.load()
        for case let item in set.similar {
            let ids = Set(try #require(try catalog.similar(id: item.id, limit: 10)).map(\.book.id))
            let hits = item.expected.filter(ids.contains).count
            #expect(hits >= item.minHits, "similar(\(item.title)) found \(hits) of \(item.expected)")
        }
    }

    /// The relevance set's first 44 queries (the set before 12 more were added).
    static let originalQueries = 44
    // `semantic` and `hybrid` run the sentence model (title-word hashing measured 0.886 on the
    // first 44, 0.839 on all 56, recall 0.612, hybrid 0.839).
    static let hitAt10Floor = 0.84  // first 44 queries: measured 0.886 (39/44)
    static let wholeSetHitAt10Floor = 0.80  // all 56: measured 0.857 (48/56)
    static let recallFloor = 0.55  // measured 0.584 (125/214)
    static let hybridHitAt10Floor = 0.85  // all 56: measured 0.911 (51/56)
}
