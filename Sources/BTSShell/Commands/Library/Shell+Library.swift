import BTSLanguage
import BooksTrackContract
import BooksTrackLibrary
import Foundation

/// The session's handle on the user's library.
struct LibraryState: Sendable {
    var library: BookLibrary?
    /// The choice `library` was opened for (`set library`).
    var openedFor: ShellSettings.LibraryChoice = .yours
    /// The scratch library's directory, once made; removed at the end of the session.
    var scratchDirectory: URL?
    /// Whether completion's shelves, ISBNs and titles must be read again.
    var completionStale = true
}

extension Shell {
    /// The library at `$XDG_DATA_HOME/bts/library.sqlite` (`BTS_LIBRARY` overrides the path),
    /// opened on first use. Never opens a backend.
    func library() throws(ShellError) -> BookLibrary {
        if let library = services.openedLibrary.library, services.openedLibrary.openedFor == settings.library {
            return library
        }
        services.openedLibrary.library = nil
        services.openedLibrary.completionStale = true
        guard let path = currentLibraryPath() else {
            throw ShellError(
                .failure,
                "cannot find the library: XDG_DATA_HOME is not an absolute path and no home directory is known",
                code: .libraryUnavailable
            )
        }
        do {
            let library = try BookLibrary(path: path)
            services.openedLibrary.library = library
            services.openedLibrary.openedFor = settings.library
            return library
        } catch {
            throw ShellError(error)
        }
    }

    func libraryChanged() {
        services.openedLibrary.completionStale = true
    }

    /// The file of the library `set library` chooses: the reader's, or the session's scratch one
    /// (a new temporary directory, made at its first use).
    private func currentLibraryPath() -> URL? {
        guard settings.library == .scratch else { return Self.libraryPath(environment: options.environment) }
        if let directory = services.openedLibrary.scratchDirectory {
            return directory.appendingPathComponent("library.sqlite")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bts-scratch-library-\(UUID().uuidString)", isDirectory: true)
        guard
            (try? FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )) != nil
        else { return nil }
        services.openedLibrary.scratchDirectory = directory
        return directory.appendingPathComponent("library.sqlite")
    }

    /// Deletes the scratch library, if the session made one.
    func removeScratchLibrary() {
        guard let directory = services.openedLibrary.scratchDirectory else { return }
        if services.openedLibrary.openedFor == .scratch { services.openedLibrary.library = nil }
        services.openedLibrary.scratchDirectory = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// Where the library lives for `environment`.
    static func libraryPath(environment: [String: String]) -> URL? {
        if let file = environment["BTS_LIBRARY"], file.hasPrefix("/") { return URL(fileURLWithPath: file) }
        return XDGPaths(environment: environment).libraryFile
    }

    /// The library for completion: the open one, or the file when it exists (never creates it).
    func libraryForCompletion() -> BookLibrary? {
        if let library = services.openedLibrary.library, services.openedLibrary.openedFor == settings.library {
            return library
        }
        if settings.library == .scratch { return try? library() }
        guard let path = Self.libraryPath(environment: options.environment),
            FileManager.default.fileExists(atPath: path.path)
        else { return nil }
        return try? library()
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
        guard let library = libraryForCompletion() else { return }
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
