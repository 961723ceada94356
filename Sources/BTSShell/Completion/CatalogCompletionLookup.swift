import BooksTrackCatalog
import Synchronization

/// Where TAB finds authors and titles beyond the session's own results: the bundled catalog.
/// Each call is one bounded query that answers at once; a lookup that cannot answer without
/// building something answers nothing.
package protocol CatalogCompletionLookup: Sendable {
    /// Author names with a word starting with each word of `typed`, the most popular first.
    func authors(_ typed: String, limit: Int) -> [String]
    /// Titles with a word starting with each word of `typed`, the most popular first.
    func titles(_ typed: String, limit: Int) -> [String]
}

/// The embedded backend's catalog, opened on the first TAB that needs it, and only when its
/// database is already built (opening a built one is one small query): completion never starts
/// the catalog's build nor the server, and start-up does not pay for it.
final class EmbeddedCatalogLookup: CatalogCompletionLookup {
    private let open: @Sendable () -> SQLiteCatalog?
    private let opened = Mutex<SQLiteCatalog?>(nil)

    /// `open` returns the catalog when it can without building it, else nil (asked again next time).
    init(open: @escaping @Sendable () -> SQLiteCatalog?) {
        self.open = open
    }

    private var catalog: SQLiteCatalog? {
        if let catalog = opened.withLock({ $0 }) { return catalog }
        guard let catalog = open() else { return nil }
        opened.withLock { $0 = catalog }
        return catalog
    }

    func authors(_ typed: String, limit: Int) -> [String] {
        catalog?.authorCompletions(typed, limit: limit) ?? []
    }

    func titles(_ typed: String, limit: Int) -> [String] {
        catalog?.titleCompletions(typed, limit: limit) ?? []
    }
}
