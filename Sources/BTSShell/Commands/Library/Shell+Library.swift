import BTSLanguage
import BooksTrackContract
import BooksTrackLibrary
import Foundation

extension Shell {
    /// The library `set library` chooses, opened on first use (``LibraryState``). Never opens a backend.
    func library() throws(ShellError) -> BookLibrary {
        try services.openedLibrary.open(settings.library, environment: options.environment)
    }

    func libraryChanged() {
        services.openedLibrary.completionStale = true
    }

    /// Deletes the scratch library, if the session made one.
    func removeScratchLibrary() {
        services.openedLibrary.removeScratch()
    }
}

extension ShellError {
    /// A library failure in the shell's terms: a bad value is a usage error (2), the rest fail (1).
    init(_ error: LibraryError, range: SourceRange? = nil) {
        switch error {
        case .notFound: self.init(.failure, error.message, range: range, code: .notFound)
        case .invalidValue, .unreadableFile: self.init(.usage, error.message, range: range)
        case .busy: self.init(.failure, error.message, range: range, code: .libraryBusy)
        case .damaged, .unreadableBooks: self.init(.failure, error.message, range: range, code: .libraryDamaged)
        default: self.init(.failure, error.message, range: range, code: .libraryError)
        }
    }
}

extension Shell {
    /// Puts the library's shelves, tags, ISBNs and titles into the completion snapshot when the
    /// library changed since the last time (or was never read). Never creates the library file.
    func noteLibrary(in store: CompletionContextStore) async {
        guard services.openedLibrary.completionStale else { return }
        services.openedLibrary.completionStale = false
        guard let library = services.openedLibrary.forCompletion(settings.library, environment: options.environment)
        else { return }
        await ReaderCompletion.note(library, in: store)
    }
}

extension ErrorCode {
    /// No place for the library (XDGPaths.libraryFile is nil).
    static let libraryUnavailable: ErrorCode = "LIBRARY_UNAVAILABLE"
    /// The library is locked by another process.
    static let libraryBusy: ErrorCode = "LIBRARY_BUSY"
    /// The library file is damaged or holds unreadable books.
    static let libraryDamaged: ErrorCode = "LIBRARY_DAMAGED"
    /// Any other library failure.
    static let libraryError: ErrorCode = "LIBRARY_ERROR"
}
