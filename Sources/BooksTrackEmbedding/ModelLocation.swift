import Foundation

/// Where the sentence model's files are: `$BTS_MODEL_DIR`, else
/// `$XDG_DATA_HOME/bts/models/all-MiniLM-L6-v2` (`~/.local/share/…`), where `scripts/setup`
/// puts them (nothing is downloaded at run time).
package enum ModelLocation {
    package static let name = "all-MiniLM-L6-v2"
    package static let files = ["vocab.txt", "model.safetensors"]

    package static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let dir = environment["BTS_MODEL_DIR"], dir.hasPrefix("/") { return URL(fileURLWithPath: dir) }
        let data: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            data = xdg
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            data = home + "/.local/share"
        } else {
            return nil
        }
        return URL(fileURLWithPath: data).appendingPathComponent("bts/models/\(name)")
    }

    /// The directory when every model file is in it.
    package static func installed(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        guard let dir = directory(environment: environment) else { return nil }
        let present = files.allSatisfy { FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }
        return present ? dir : nil
    }
}
