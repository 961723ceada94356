/// Row-major matrix of L2-normalized vectors (one contiguous `[Float]`) with cosine top-k.
struct VectorIndex: Sendable {
    let dimension: Int
    /// `ids[row]` is the goodbooks id of row `row`.
    let ids: [Int]
    let values: [Float]
    /// Row of each id.
    let rowOfID: [Int: Int]

    init(dimension: Int, ids: [Int], values: [Float]) {
        self.dimension = dimension
        self.ids = ids
        self.values = values
        var rows: [Int: Int] = [:]
        rows.reserveCapacity(ids.count)
        for (row, id) in ids.enumerated() { rows[id] = row }
        self.rowOfID = rows
    }

    var count: Int { ids.count }

    func vector(ofID id: Int) -> ArraySlice<Float>? {
        guard let row = rowOfID[id] else { return nil }
        return values[(row * dimension)..<((row + 1) * dimension)]
    }

    /// Cosine of `query` with every row.
    func cosines<C: Collection>(_ query: C) -> [Float] where C.Element == Float, C.Index == Int {
        var out = [Float](repeating: 0, count: ids.count)
        guard query.count == dimension else { return out }
        let q = Array(query)
        values.withUnsafeBufferPointer { m in
            q.withUnsafeBufferPointer { qp in
                for row in 0..<ids.count {
                    let base = row * dimension
                    var sum: Float = 0
                    for j in 0..<dimension { sum += m[base + j] * qp[j] }
                    out[row] = sum
                }
            }
        }
        return out
    }

    /// Indices of the `k` largest scores, best first (ties: lower index first), via a bounded
    /// min-heap — O(n log k) instead of a full sort.
    static func topK(_ scores: [Float], k: Int, excluding excluded: Set<Int> = []) -> [Int] {
        guard k > 0 else { return [] }
        var heap = BoundedMinHeap(capacity: k)
        for (i, s) in scores.enumerated() where !excluded.contains(i) && s.isFinite {
            heap.offer(score: s, index: i)
        }
        return heap.sortedDescending().map(\.index)
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
