import Foundation

/// Where the library lives: `$XDG_DATA_HOME/bts/library.sqlite`, or `$HOME/.local/share/bts/library.sqlite`
/// when `XDG_DATA_HOME` is unset, empty or relative (the XDG Base Directory rules).
public enum LibraryLocation {
    /// The file name inside the `bts` data directory.
    public static let fileName = "library.sqlite"

    /// The library path for `environment` (pass `ProcessInfo.processInfo.environment`); nil when
    /// neither an absolute `XDG_DATA_HOME` nor an absolute `HOME` is set.
    public static func defaultPath(environment: [String: String]) -> URL? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data, isDirectory: true)
                .appendingPathComponent("bts", isDirectory: true).appendingPathComponent(fileName)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local/share/bts", isDirectory: true).appendingPathComponent(fileName)
        }
        return nil
    }
}
