import BTSTerminal
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file that holds private data (an export with the user's notes): mode 0600, through a
/// temporary file beside it that is renamed over it (a reader never sees half a file). An existing
/// name that is not a regular file — a symbolic link, a FIFO, a device — is refused: replacing it
/// with a regular file (`Data.write(options: .atomic)` did, `/dev/full` included, as root) loses it.
enum PrivateFile {
    enum Failure: Error, Equatable {
        /// The name exists and is a directory, a symbolic link, a FIFO, a device or a socket.
        case notARegularFile(kind: String)
        /// The system refused (`reason` is strerror's words).
        case cannotWrite(reason: String)
    }

    /// Replaces (or creates) the file at `path` with `bytes`.
    static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        var status = stat()
        if lstat(path, &status) == 0, let kind = kind(of: status.st_mode) {
            throw .notARegularFile(kind: kind)
        }
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\(name).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(reason: String(cString: strerror(errno))) }
        var problem = DescriptorWriter.writeAll(bytes, to: descriptor)
        if problem == nil, fsync(descriptor) != 0 { problem = errno }
        if close(descriptor) != 0, problem == nil { problem = errno }
        if problem == nil, rename(temporary, path) != 0 { problem = errno }
        if let problem {
            unlink(temporary)
            throw .cannotWrite(reason: String(cString: strerror(problem)))
        }
    }

    /// What a non-regular file is, in words (nil for a regular file).
    private static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "a socket"
        }
    }
}
