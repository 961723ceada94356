import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a script for `bts FILE`, `source FILE`, `bts fmt` and `bts check`: a regular file or a pipe (`/dev/stdin`,
/// `bts <(…)`: FileManager read neither), at most `maxBytes` (checking a script takes memory many
/// times its size).
public enum ScriptFile {
    static let maxBytes = 1 << 20

    public enum Failure: Error, Equatable {
        case unreadable
        case directory
        case tooLarge

        /// Words for "cannot read 'FILE': …".
        public var reason: String {
            switch self {
            case .unreadable: return "no such file or not readable"
            case .directory: return "it is a directory"
            case .tooLarge: return "it is larger than \(ScriptFile.maxBytes >> 20) MB (scripts are at most that)"
            }
        }
    }

    /// The text of the script at `path` (invalid UTF-8 becomes U+FFFD).
    public static func read(_ path: String) throws(Failure) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { throw .directory }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > maxBytes { throw .tooLarge }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
