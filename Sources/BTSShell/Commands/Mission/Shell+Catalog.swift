import BooksTrackCatalog
import Foundation

extension Shell {
    /// The bundled catalog, for what the shell computes itself (`recommend --library`): the embedded
    /// backend's (opened once per process and shared with it), whichever backend is current.
    func catalog() throws(ShellError) -> SQLiteCatalog {
        let directory = options.backendOptions.cacheDirectory
        do {
            if let embedded = options.backendOptions.embedded { return try embedded.catalog(cacheDirectory: directory) }
            return try SQLiteCatalog.shared(cacheDirectory: directory)
        } catch {
            throw ShellError(.failure, "cannot open the bundled catalog in \(directory.path): \(error)")
        }
    }
}
