/// Which of the ranked neighbours `similar` and personal recommendations show, from the
/// scores alone (no I/O): one row per work (`WorkIdentity`), at most `perAuthor` per
/// first author, and at most `own.limit` of the books `own.test` holds for (the source's own
/// author and series), chosen after those `own.first` holds for (placed whatever their scores).
enum NeighbourSelection {
    typealias Own = (test: (CatalogBook) -> Bool, first: (CatalogBook) -> Bool, limit: Int)

    /// Up to `limit` of `ranked` (best first; rows of `books`), works in `excludingWorks` left out.
    static func select(
        _ ranked: [(row: Int, score: Float)],
        books: [CatalogBook],
        excludingWorks: Set<String>,
        limit: Int,
        perAuthor: Int = .max,
        own: Own? = nil
    ) -> [(row: Int, score: Float)] {
        var chosenOwn: Set<Int> = []
        var reserved: Set<Int> = []
        if let own {
            // The own books allowed, one per work: those `first` holds for (kept a place however
            // far down their scores are), then the rest in score order.
            var seen = excludingWorks
            let candidates = ranked.filter { own.test(books[$0.row]) }
            let firsts = candidates.filter { own.first(books[$0.row]) }
            for candidate in firsts + candidates where chosenOwn.count < own.limit {
                let keys = WorkIdentity.keys(books[candidate.row])
                guard seen.isDisjoint(with: keys) else { continue }
                seen.formUnion(keys)
                chosenOwn.insert(candidate.row)
                if own.first(books[candidate.row]) { reserved.insert(candidate.row) }
            }
        }
        var seen = excludingWorks
        var byAuthor: [String: Int] = [:]
        var out: [(row: Int, score: Float)] = []
        var toPlace = reserved.count
        for candidate in ranked {
            let book = books[candidate.row]
            let keys = WorkIdentity.keys(book)
            let author = book.authors.first ?? ""
            guard seen.isDisjoint(with: keys), byAuthor[author, default: 0] < perAuthor else { continue }
            if reserved.contains(candidate.row) {
                toPlace -= 1
            } else {
                if let own, own.test(book), !chosenOwn.contains(candidate.row) { continue }
                guard out.count + toPlace < limit else { continue }
            }
            seen.formUnion(keys)
            byAuthor[author, default: 0] += 1
            out.append(candidate)
            if out.count == limit { break }
        }
        return out
    }
}
