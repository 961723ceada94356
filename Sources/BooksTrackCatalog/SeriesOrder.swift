/// Puts the numbered books of each series in series order within a ranking.
package enum SeriesOrder {
    /// `picks` with the numbered books of each series in series order (#2 before #3), in the
    /// places the ranking gave them: the series keeps the same rows, its first row holding its
    /// lowest number. Books of no series, and a series' side books (a prequel #0.5, a novella
    /// #2.5, a collection #0.1–0.4), stay where the ranking put them: a weaker side book does not
    /// take the row a main book earned.
    package static func inSeriesOrder<Pick>(_ picks: [Pick], book: (Pick) -> CatalogBook) -> [Pick] {
        var rows: [String: [Int]] = [:]
        for (index, pick) in picks.enumerated() {
            let found = book(pick)
            guard let series = found.series?.lowercased(), let number = found.seriesNumber,
                number >= 1, number == number.rounded()
            else { continue }
            rows[series, default: []].append(index)
        }
        var ordered = picks
        for indices in rows.values where indices.count > 1 {
            let members = indices.sorted { a, b in
                let (x, y) = (book(picks[a]).seriesNumber ?? 0, book(picks[b]).seriesNumber ?? 0)
                return x != y ? x < y : a < b
            }
            for (row, member) in zip(indices, members) { ordered[row] = picks[member] }
        }
        return ordered
    }
}
