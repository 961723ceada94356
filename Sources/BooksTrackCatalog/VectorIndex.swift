import Foundation

/// L2-normalized vectors (so a dot product is a cosine) in one contiguous column-major `[Float]`:
/// `values[d * count + row]`. Hashed embeddings are sparse (a query sets ~50 of 768 dimensions), so
/// a scan walks only the query's non-zero dimensions, each a contiguous column added into the
/// scores with a SIMD multiply-add — about 50 × 10,000 multiply-adds per query instead of
/// 768 × 10,000. Score buffers come from a small pool: a query allocates nothing in the scan.
struct VectorIndex: Sendable {
    let dimension: Int
    /// `ids[row]` is the goodbooks id of row `row`.
    let ids: [Int]
    /// Column-major: `values[d * ids.count + row]`.
    let values: [Float]
    /// Row of each id.
    let rowOfID: [Int: Int]
    private let pool = ScratchPool()

    init(dimension: Int, ids: [Int], columns: [Float]) {
        self.dimension = dimension
        self.ids = ids
        self.values = columns
        var rows: [Int: Int] = [:]
        rows.reserveCapacity(ids.count)
        for (row, id) in ids.enumerated() { rows[id] = row }
        self.rowOfID = rows
    }

    var count: Int { ids.count }

    /// The stored vector of the book with goodbooks id `id` (a gather of one row).
    func vector(ofID id: Int) -> [Float]? {
        guard let row = rowOfID[id] else { return nil }
        let n = count
        return (0..<dimension).map { values[$0 * n + row] }
    }

    /// Calls `body` with the cosine of `query` with every row (a pooled buffer, valid only inside
    /// `body`). A query of the wrong length scores 0 everywhere.
    func withCosines<R>(_ query: [Float], _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        let n = count
        return try pool.withBuffer(count: n) { scores in
            guard query.count == dimension, n > 0 else { return try body(scores) }
            values.withUnsafeBufferPointer { m in
                guard let base = m.baseAddress, let out = scores.baseAddress else { return }
                for d in 0..<dimension {
                    let q = query[d]
                    if q == 0 { continue }
                    Self.multiplyAdd(q, base + d * n, into: out, count: n)
                }
            }
            return try body(scores)
        }
    }

    /// `out[i] += a * column[i]` for `count` values, eight lanes at a time.
    @inline(__always)
    static func multiplyAdd(_ a: Float, _ column: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, count: Int) {
        let lanes = SIMD8<Float>(repeating: a)
        var i = 0
        let rawColumn = UnsafeRawPointer(column)
        let rawOut = UnsafeMutableRawPointer(out)
        while i + 8 <= count {
            let c = rawColumn.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            let o = rawOut.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            rawOut.storeBytes(of: o + lanes * c, toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            out[i] += a * column[i]
            i += 1
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

/// Reusable zeroed `Float` buffers for score scans (one per concurrent query; at most a few kept).
final class ScratchPool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [UnsafeMutableBufferPointer<Float>] = []
    static let kept = 8

    deinit {
        for buffer in free { buffer.deallocate() }
    }

    /// Runs `body` with a zeroed buffer of `count` values, then returns it to the pool.
    func withBuffer<R>(count: Int, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        let buffer: UnsafeMutableBufferPointer<Float> = {
            lock.lock()
            defer { lock.unlock() }
            if let index = free.firstIndex(where: { $0.count == count }) { return free.remove(at: index) }
            return UnsafeMutableBufferPointer<Float>.allocate(capacity: count)
        }()
        buffer.initialize(repeating: 0)
        defer {
            lock.lock()
            if free.count < Self.kept { free.append(buffer) } else { buffer.deallocate() }
            lock.unlock()
        }
        return try body(buffer)
    }
}

/// Min-heap of at most `capacity` (score, index) pairs keeping the largest scores.
struct BoundedMinHeap {
    struct Entry { var score: Float; var index: Int }
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
            let l = 2 * i + 1, r = l + 1
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
