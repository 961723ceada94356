import BooksTrackLibrary
import Foundation

/// The session's handle on the user's library: the reader's own file (`$XDG_DATA_HOME/bts/library.sqlite`,
/// `BTS_LIBRARY` overriding the path) or the session's scratch one (`set library scratch`: a new
/// temporary directory, made at its first use and removed at the end), opened on first use and
/// opened again when `set library` chooses the other. Never opens a backend.
struct LibraryState: Sendable {
    var library: BookLibrary?
    /// The choice `library` was opened for (`set library`).
    var openedFor: ShellSettings.LibraryChoice = .yours
    /// The scratch library's directory, once made; removed at the end of the session.
    var scratchDirectory: URL?
    /// Whether completion's shelves, ISBNs and titles must be read again.
    var completionStale = true

    /// The library `choice` names, opened (or made) if it is not open yet.
    mutating func open(
        _ choice: ShellSettings.LibraryChoice,
        environment: [String: String]
    ) throws(ShellError) -> BookLibrary {
        if let library, openedFor == choice { return library }
        library = nil
        completionStale = true
        guard let path = path(of: choice, environment: environment) else {
            throw ShellError(
                .failure,
                "cannot find the library: XDG_DATA_HOME is not an absolute path and no home directory is known",
                code: .libraryUnavailable
            )
        }
        do {
            let opened = try BookLibrary(path: path)
            library = opened
            openedFor = choice
            return opened
        } catch {
            throw ShellError(error)
        }
    }

    /// The library for completion: the open one, or the file when it exists (never creates the
    /// reader's file; the scratch one is made).
    mutating func forCompletion(_ choice: ShellSettings.LibraryChoice, environment: [String: String]) -> BookLibrary? {
        if let library, openedFor == choice { return library }
        if choice == .scratch { return try? open(choice, environment: environment) }
        guard let path = Self.path(environment: environment), FileManager.default.fileExists(atPath: path.path)
        else { return nil }
        return try? open(choice, environment: environment)
    }

    /// Deletes the scratch library, if the session made one.
    mutating func removeScratch() {
        guard let directory = scratchDirectory else { return }
        if openedFor == .scratch { library = nil }
        scratchDirectory = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// Where the reader's library lives for `environment`.
    static func path(environment: [String: String]) -> URL? {
        if let file = environment["BTS_LIBRARY"], file.hasPrefix("/") { return URL(fileURLWithPath: file) }
        return XDGPaths(environment: environment).libraryFile
    }

    /// The file of the library `choice` names: the reader's, or the session's scratch one (a new
    /// temporary directory, made at its first use).
    private mutating func path(of choice: ShellSettings.LibraryChoice, environment: [String: String]) -> URL? {
        guard choice == .scratch else { return Self.path(environment: environment) }
        if let scratchDirectory { return scratchDirectory.appendingPathComponent("library.sqlite") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bts-scratch-library-\(UUID().uuidString)", isDirectory: true)
        guard
            (try? FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )) != nil
        else { return nil }
        scratchDirectory = directory
        return directory.appendingPathComponent("library.sqlite")
    }
}
