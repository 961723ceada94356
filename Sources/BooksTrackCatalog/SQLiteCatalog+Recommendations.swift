import BooksTrackContract
import Foundation

extension SQLiteCatalog {
    /// `limit` well-rated books for the ISO week of `weekOf` (`WeeklyPicks`).
    package func weeklyRecommendations(weekOf: Date, limit: Int) throws -> [Recommendation] {
        WeeklyPicks.picks(from: try books.all, weekOf: weekOf, limit: limit)
    }

    /// `picks` with each series' numbered books in series order (`SeriesOrder`).
    package static func inSeriesOrder<Pick>(_ picks: [Pick], book: (Pick) -> CatalogBook) -> [Pick] {
        SeriesOrder.inSeriesOrder(picks, book: book)
    }
}
