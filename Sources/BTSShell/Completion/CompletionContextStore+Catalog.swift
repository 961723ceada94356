import BooksTrackCatalog
import Foundation

extension CompletionContextStore {
    /// Authors and titles complete from the bundled catalog while the embedded backend is the
    /// session's (`embedded`: one lookup kept across commands; it opens the catalog on the first
    /// TAB that needs it, only if it is built). Any other backend clears the lookup.
    func noteCatalog(embedded: Bool, backendOptions: BackendOptions) {
        guard embedded else {
            catalogLookup = nil
            return
        }
        guard catalogLookup == nil else { return }
        let server = backendOptions.embedded
        let directory = backendOptions.cacheDirectory
        catalogLookup = EmbeddedCatalogLookup {
            if let server {
                return server.buildsCatalog(cacheDirectory: directory)
                    ? nil : try? server.catalog(cacheDirectory: directory)
            }
            return SQLiteCatalog.isBuilt(cacheDirectory: directory)
                ? try? SQLiteCatalog.shared(cacheDirectory: directory) : nil
        }
    }
}
