import BooksTrackCatalog
import BooksTrackLibrary
import Foundation

/// What completion knows of the reader outside a session (an editor's, `bts lsp`): the built-in
/// profiles, the bundled catalog's authors and titles when the embedded backend is the one a
/// session would use (opened on the first TAB that needs it, only if it is built), and the
/// library's shelves, tags, ISBNs and titles. It never creates the library file, opens a
/// backend or sends a request.
package enum ReaderCompletion {
    /// Puts what the files of `environment` hold into `store`.
    package static func note(in store: CompletionContextStore, environment: [String: String]) async {
        let paths = XDGPaths(environment: environment)
        let target = try? BackendSelection.select(BackendRequest(), environment: environment) { () throws(ShellError) in
            try ShellConfig.load(from: paths.configFile)
        }
        if target == .embedded {
            let directory = paths.cacheDirectory
            store.catalogLookup = EmbeddedCatalogLookup {
                SQLiteCatalog.isBuilt(cacheDirectory: directory)
                    ? try? SQLiteCatalog.shared(cacheDirectory: directory) : nil
            }
        }
        if let path = LibraryState.path(environment: environment), FileManager.default.fileExists(atPath: path.path),
            let library = try? BookLibrary(path: path)
        {
            await note(library, in: store)
        }
        store.update { $0.profiles = Set(BackendProfile.builtIn.map(\.name)) }
    }

    /// The most library books offered to completion (newest titles first in the recency index).
    static let libraryLimit = 5_000

    /// Puts `library`'s shelves, tags, ISBNs and titles into `store`.
    static func note(_ library: BookLibrary, in store: CompletionContextStore) async {
        let shelves = (try? await library.shelves())?.map(\.shelf.rawValue) ?? []
        let tags = (try? await library.tags())?.map(\.tag) ?? []
        let handles = (try? await library.handles(prefix: "", limit: libraryLimit)) ?? []
        store.update { context in
            context.shelves = shelves
            context.tags = tags
            for handle in handles.reversed() { context.noteBook(isbn: handle.isbn13, title: handle.title) }
        }
    }
}
