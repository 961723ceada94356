import BooksTrackLibrary
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The XDG locations of bts: config `$XDG_CONFIG_HOME/bts/config.toml`, caches (capabilities,
/// catalog database) `$XDG_CACHE_HOME/bts/`, state (jobs, history) `$XDG_STATE_HOME/bts/`, data
/// (the library) `$XDG_DATA_HOME/bts/`.
///
/// One rule for every one of them (``directory(_:fallback:environment:passwdHome:)``): the variable
/// when it is an absolute path (the XDG Base Directory rule: a relative one is ignored), else the
/// fallback under the home directory: `HOME` when absolute, else the user's passwd entry; nil when
/// no home is known either.
package struct XDGPaths: Sendable, Hashable {
    package var configFile: URL
    /// `$XDG_CONFIG_HOME/bts/rc.bts`: run at the start of an interactive session (not with `--norc`).
    package var rcFile: URL
    package var cacheDirectory: URL
    package var stateDirectory: URL
    /// `$XDG_STATE_HOME/bts/history`; nil when neither the variable nor a home directory is known.
    package var historyFile: URL?
    /// `$XDG_DATA_HOME/bts/library.sqlite`; nil when neither the variable nor a home directory is known.
    package var libraryFile: URL?

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        // Without any home directory, config, caches and state fall back to the temporary directory
        // (nothing there is precious); history and the library are then not kept at all.
        let scratch = URL(filePath: NSTemporaryDirectory(), directoryHint: .isDirectory)
        func bts(_ variable: String, _ fallback: String) -> URL? {
            Self.directory(variable, fallback: fallback, environment: environment)?
                .appending(path: "bts", directoryHint: .isDirectory)
        }
        let config =
            bts("XDG_CONFIG_HOME", ".config") ?? scratch.appending(path: "bts-config", directoryHint: .isDirectory)
        configFile = config.appending(path: "config.toml", directoryHint: .notDirectory)
        rcFile = config.appending(path: "rc.bts", directoryHint: .notDirectory)
        cacheDirectory =
            bts("XDG_CACHE_HOME", ".cache") ?? scratch.appending(path: "bts-cache", directoryHint: .isDirectory)
        let state = bts("XDG_STATE_HOME", ".local/state")
        stateDirectory = state ?? scratch.appending(path: "bts-state", directoryHint: .isDirectory)
        historyFile = state?.appending(path: "history", directoryHint: .notDirectory)
        libraryFile = bts("XDG_DATA_HOME", ".local/share")?.appending(
            path: LibraryLocation.fileName,
            directoryHint: .notDirectory
        )
    }

    /// `$variable` when it is an absolute path, else `fallback` under the home directory (`HOME`
    /// when absolute, else `passwdHome()`), else nil. Directory hints throughout: without them each
    /// URL asks the file system (a stat per part, at every start).
    package static func directory(
        _ variable: String,
        fallback: String,
        environment: [String: String],
        passwdHome: () -> String? = XDGPaths.passwdHome
    ) -> URL? {
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(filePath: value, directoryHint: .isDirectory)
        }
        let home =
            environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? passwdHome().flatMap { $0.hasPrefix("/") ? $0 : nil }
        return home.map {
            URL(filePath: $0, directoryHint: .isDirectory).appending(path: fallback, directoryHint: .isDirectory)
        }
    }

    /// The current user's home directory from the passwd database.
    package static func passwdHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
