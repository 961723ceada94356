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
        func base(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return URL(fileURLWithPath: home).appendingPathComponent(fallback)
        }
        configFile = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("bts/config.toml")
        rcFile = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("bts/rc.bts")
        cacheDirectory = base("XDG_CACHE_HOME", ".cache").appendingPathComponent("bts")
        stateDirectory = base("XDG_STATE_HOME", ".local/state").appendingPathComponent("bts")
    }
}
