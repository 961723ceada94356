import Foundation

/// The XDG locations of bts: config `$XDG_CONFIG_HOME/bts/config.toml`, caches (capabilities,
/// catalog database) `$XDG_CACHE_HOME/bts/`, history `$XDG_STATE_HOME/bts/history`.
public struct XDGPaths: Sendable, Hashable {
    public var configFile: URL
    /// `$XDG_CONFIG_HOME/bts/rc.bts`: run at the start of an interactive session (not with `--norc`).
    public var rcFile: URL
    public var cacheDirectory: URL
    public var stateDirectory: URL

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        // Directory hints throughout: without them each URL asks the file system (a stat per part,
        // at every start).
        func base(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(filePath: value, directoryHint: .isDirectory)
            }
            return URL(filePath: home, directoryHint: .isDirectory).appending(path: fallback, directoryHint: .isDirectory)
        }
        let config = base("XDG_CONFIG_HOME", ".config").appending(path: "bts", directoryHint: .isDirectory)
        configFile = config.appending(path: "config.toml", directoryHint: .notDirectory)
        rcFile = config.appending(path: "rc.bts", directoryHint: .notDirectory)
        cacheDirectory = base("XDG_CACHE_HOME", ".cache").appending(path: "bts", directoryHint: .isDirectory)
        stateDirectory = base("XDG_STATE_HOME", ".local/state").appending(path: "bts", directoryHint: .isDirectory)
    }
}
