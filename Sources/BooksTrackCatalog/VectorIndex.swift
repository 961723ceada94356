import Foundation
import Synchronization

/// L2-normalized vectors (so a dot product is a cosine), stored sparse by dimension: hashed
/// embeddings set ~83 of 768 dimensions per book (827,468 values over the 10,000 books), so each
/// dimension keeps only the rows where it is non-zero (rows ascending, with their values). A query
/// walks only its own non-zero dimensions (~50) and adds each one's list (~1,100 rows on average)
/// into the scores: about 54,000 multiply-adds per query instead of 50 columns × 10,000 rows, in
/// 6.6 MB instead of a 30 MB dense matrix. The sums are
/// the dense scan's, term for term in the same order (the skipped terms were exact zeros). Score
/// buffers come from a small pool: a query allocates nothing in the scan.
struct VectorIndex: Sendable {
    let dimension: Int
    /// `ids[row]` is the goodbooks id of row `row`.
    let ids: [Int]
    /// Dimension `d`'s entries are `start[d]..<start[d + 1]` of `rows` and `values`.
    let start: [Int]
    let rows: [Int32]
    let values: [Float]
    /// Row of each id.
    let rowOfID: [Int: Int]
    private let pool = ScratchPool()

    /// From a dense column-major matrix: `columns[d * ids.count + row]`.
    init(dimension: Int, ids: [Int], columns: [Float]) {
        self.dimension = dimension
        self.ids = ids
        let n = ids.count
        var start = [0]
        var rows: [Int32] = []
        var values: [Float] = []
        start.reserveCapacity(dimension + 1)
        if columns.count == dimension * n {
            for d in 0..<dimension {
                for row in 0..<n where columns[d * n + row] != 0 {
                    rows.append(Int32(row))
                    values.append(columns[d * n + row])
                }
                start.append(rows.count)
            }
        } else {
            start += Array(repeating: 0, count: dimension)
        }
        self.start = start
        self.rows = rows
        self.values = values
        rowOfID = Self.rows(of: ids)
    }

    /// From sparse rows: `sparseRows[row]` holds the non-zero (dimension, value) pairs of a row
    /// (dimensions below `dimension`, each at most once).
    init(dimension: Int, ids: [Int], sparseRows: [[SparseEntry]]) {
        self.dimension = dimension
        self.ids = ids
        var counts = [Int](repeating: 0, count: dimension + 1)
        for entries in sparseRows { for e in entries { counts[Int(e.dimension) + 1] += 1 } }
        for d in 0..<dimension { counts[d + 1] += counts[d] }
        var next = counts
        var rows = [Int32](repeating: 0, count: counts[dimension])
        var values = [Float](repeating: 0, count: counts[dimension])
        for (row, entries) in sparseRows.enumerated() {
            for e in entries {
                let slot = next[Int(e.dimension)]
                rows[slot] = Int32(row)
                values[slot] = e.value
                next[Int(e.dimension)] += 1
            }
        }
        self.start = counts
        self.rows = rows
        self.values = values
        rowOfID = Self.rows(of: ids)
    }

    /// Row of each id.
    private static func rows(of ids: [Int]) -> [Int: Int] {
        var rowOfID: [Int: Int] = [:]
        rowOfID.reserveCapacity(ids.count)
        for (row, id) in ids.enumerated() { rowOfID[id] = row }
        return rowOfID
    }

    var count: Int { ids.count }

    /// The stored vector of the book with goodbooks id `id` (one binary search per dimension).
    func vector(ofID id: Int) -> [Float]? {
        guard let row = rowOfID[id] else { return nil }
        let target = Int32(row)
        return (0..<dimension).map { d in
            var low = start[d]
            var high = start[d + 1]
            while low < high {
                let mid = (low + high) / 2
                if rows[mid] < target { low = mid + 1 } else { high = mid }
            }
            return low < start[d + 1] && rows[low] == target ? values[low] : 0
        }
    }

    /// Calls `body` with the cosine of `query` with every row (a pooled buffer, valid only inside
    /// `body`). A query of the wrong length scores 0 everywhere.
    func withCosines<R>(_ query: [Float], _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        guard query.count == dimension else { return try withScores(sparse: [], body) }
        var sparse: [SparseEntry] = []
        for (d, q) in query.enumerated() where q != 0 { sparse.append(SparseEntry(dimension: Int32(d), value: q)) }
        return try withScores(sparse: sparse, body)
    }

    /// Calls `body` with the dot product of the sparse `query` with every row (a pooled buffer, valid
    /// only inside `body`); a cosine when `query` is unit length. Out-of-range dimensions count 0.
    func withScores<R>(
        sparse query: [SparseEntry],
        _ body: (UnsafeMutableBufferPointer<Float>) throws -> R
    ) rethrows -> R {
        try pool.withBuffer(count: count) { scores in
            guard count > 0, let out = scores.baseAddress else { return try body(scores) }
            rows.withUnsafeBufferPointer { rows in
                values.withUnsafeBufferPointer { values in
                    for q in query where q.dimension >= 0 && Int(q.dimension) < dimension {
                        let d = Int(q.dimension)
                        for k in start[d]..<start[d + 1] {
                            out[Int(rows[k])] += q.value * values[k]
                        }
                    }
                }
            }
            return try body(scores)
        }
    }

    /// Cosine of `query` with every row (a fresh array; tests and one-off callers).
    func cosines(_ query: [Float]) -> [Float] {
        withCosines(query) { Array($0) }
    }

    /// Indices of the `k` largest scores, best first (ties: lower index first), via a bounded
    /// min-heap — O(n log k) instead of a full sort. Non-finite scores and `excluded` are skipped.
    static func topK(_ scores: UnsafeBufferPointer<Float>, k: Int, excluding excluded: Int? = nil) -> [Int] {
        guard k > 0 else { return [] }
        var heap = BoundedMinHeap(capacity: k)
        for i in 0..<scores.count where i != excluded {
            let s = scores[i]
            if s.isFinite { heap.offer(score: s, index: i) }
        }
        return heap.sortedDescending().map(\.index)
    }

    static func topK(_ scores: [Float], k: Int, excluding excluded: Int? = nil) -> [Int] {
        scores.withUnsafeBufferPointer { topK($0, k: k, excluding: excluded) }
    }
}

/// A non-zero value of a sparse vector.
struct SparseEntry: Sendable, Hashable {
    var dimension: Int32
    var value: Float
}

/// Reusable zeroed `Float` buffers for score scans (one per concurrent query; at most a few kept).
final class ScratchPool: Sendable {
    /// A buffer as the pool holds it: owned by the pool while in it, by one query while taken out.
    private struct Scratch: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<Float>
    }

    private let free = Mutex<[Scratch]>([])
    static let kept = 8

    deinit {
        free.withLock { free in for scratch in free { scratch.buffer.deallocate() } }
    }

    /// Runs `body` with a zeroed buffer of `count` values, then returns it to the pool.
    func withBuffer<R>(count: Int, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        let reused = free.withLock { free in free.firstIndex { $0.buffer.count == count }.map { free.remove(at: $0) } }
        let scratch = reused ?? Scratch(buffer: .allocate(capacity: count))
        scratch.buffer.initialize(repeating: 0)
        defer {
            let kept = free.withLock { free in
                guard free.count < Self.kept else { return false }
                free.append(scratch)
                return true
            }
            if !kept { scratch.buffer.deallocate() }
        }
        return try body(scratch.buffer)
    }
}

/// Min-heap of at most `capacity` (score, index) pairs keeping the largest scores.
struct BoundedMinHeap {
    struct Entry {
        var score: Float
        var index: Int
    }
    let capacity: Int
    private(set) var items: [Entry] = []

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        items.reserveCapacity(self.capacity)
    }

    /// `a` ranks below `b` (lower score, or equal score and higher index).
    private static func below(_ a: Entry, _ b: Entry) -> Bool {
        a.score < b.score || (a.score == b.score && a.index > b.index)
    }

    mutating func offer(score: Float, index: Int) {
        let e = Entry(score: score, index: index)
        if items.count < capacity {
            items.append(e)
            siftUp(items.count - 1)
        } else if let root = items.first, Self.below(root, e) {
            items[0] = e
            siftDown(0)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.below(items[i], items[parent]) else { return }
            items.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1
            let r = l + 1
            var smallest = i
            if l < items.count, Self.below(items[l], items[smallest]) { smallest = l }
            if r < items.count, Self.below(items[r], items[smallest]) { smallest = r }
            if smallest == i { return }
            items.swapAt(i, smallest)
            i = smallest
        }
    }

    func sortedDescending() -> [Entry] {
        items.sorted { Self.below($1, $0) }
    }
}
