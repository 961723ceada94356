import BTSTerminal
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The one writer of a file the user named (`bts fmt` in place, `bts test`'s reports, `library export`):
/// - a symbolic link is followed and its target written (the link stays a link);
/// - an existing file is replaced whole through a temporary file in its own directory (written,
///   fsynced, then renamed over it: a reader never sees half a file, a full disk leaves it as it was)
///   that first gets the file's owner, group and mode — access is never widened (a private file's
///   group and other bits are dropped, never added);
/// - a file whose mode has no write bit (0444) is refused, for root too: the user marked it
///   read-only; one this user may not write is refused as a write would be;
/// - a new file gets 0666 less the umask, or 0600 when it is private;
/// - a FIFO, a device or a descriptor's path (`/dev/stdout`, `/dev/full`) is written to as it is when
///   the caller streams (reports), else refused; a FIFO is opened without waiting for a reader;
/// - every refusal names its cause (``Failure``).
package enum UserFile {
    /// What kind of file the caller writes.
    package struct Options: Sendable {
        /// Private data (an export with the user's notes): 0600 when new; an existing file keeps
        /// only its owner's bits.
        package var isPrivate: Bool
        /// A FIFO, a device or a descriptor's path is written to (else refused).
        package var streams: Bool
        /// Missing directories on the way are made.
        package var makesDirectories: Bool

        package init(isPrivate: Bool = false, streams: Bool = false, makesDirectories: Bool = false) {
            self.isPrivate = isPrivate
            self.streams = streams
            self.makesDirectories = makesDirectories
        }

        /// A script `bts fmt` rewrites.
        package static let script = Options()
        /// A report of `bts test`: written to a device or a pipe as it is, its directories made.
        package static let report = Options(streams: true, makesDirectories: true)
    }

    /// Why a file was not written.
    package enum Failure: Error, Equatable, Sendable {
        case directory
        /// No write bit in its mode.
        case readOnly(mode: Int)
        /// Its mode lets others write it, not this user.
        case notWritable(mode: Int)
        /// A FIFO, a device, a socket or a descriptor's stream, where only a regular file is written.
        case notRegular(kind: String)
        /// A FIFO that no process reads.
        case noReader
        /// The directory it would be in does not exist.
        case noDirectory(String)
        /// A part of the path is not a directory.
        case notADirectory(String)
        case directoryNotWritable(String)
        /// It belongs to another user (or group) that the rewritten file could not keep.
        case otherOwner
        /// What the system said (`errno`).
        case system(Int32)

        /// Words for "cannot write 'FILE': …".
        package var reason: String {
            switch self {
            case .directory: return "it is a directory"
            case .readOnly(let mode): return "it is read-only (mode \(Self.octal(mode)))"
            case .notWritable(let mode): return "you may not write it (mode \(Self.octal(mode)))"
            case .notRegular(let kind): return "it is \(kind); only a regular file is written here"
            case .noReader: return "it is a FIFO that no process is reading"
            case .noDirectory(let directory): return "there is no directory '\(directory)'"
            case .notADirectory(let path): return "'\(path)' is not a directory"
            case .directoryNotWritable(let directory): return "its directory '\(directory)' is not writable"
            case .otherOwner: return "it belongs to another user or group, which a rewritten copy could not keep"
            case .system(let code): return Self.words(code)
            }
        }

        static func octal(_ mode: Int) -> String {
            let digits = String(mode, radix: 8)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }

        static func words(_ code: Int32) -> String {
            switch code {
            case ENOSPC, EDQUOT: return "no space left on the device"
            case EROFS: return "the file system is read-only"
            case ELOOP: return "too many levels of symbolic links"
            case EBADF: return "that descriptor is not open"
            case EPIPE: return "the reader went away"
            default:
                let text = String(cString: strerror(code))
                return text.prefix(1).lowercased() + text.dropFirst()
            }
        }
    }

    /// Writes `bytes` as the whole of the file at `path` (by the rules above).
    package static func write(_ bytes: [UInt8], to path: String, _ options: Options) throws(Failure) {
        switch try resolve(path) {
        case .descriptor(let descriptor):
            guard options.streams else { throw .notRegular(kind: "a stream (\(path))") }
            if let problem = DescriptorWriter.writeAll(bytes, to: descriptor) { throw .system(problem) }
        case .missing(let target):
            let directory = directory(of: target)
            if options.makesDirectories { try makeDirectories(directory) } else { try requireDirectory(directory) }
            try replace(target, with: bytes, existing: nil, options)
        case .existing(let target, let status):
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                let mode = Int(status.st_mode & 0o7777)
                if mode & 0o222 == 0 { throw .readOnly(mode: mode) }
                if access(target, W_OK) != 0 { throw errno == EROFS ? .system(EROFS) : .notWritable(mode: mode) }
                try replace(target, with: bytes, existing: status, options)
            case S_IFDIR:
                throw .directory
            case S_IFIFO, S_IFCHR, S_IFBLK:
                guard options.streams else { throw .notRegular(kind: FileKind.words(status.st_mode)) }
                try writeThrough(target, bytes, mode: Int(status.st_mode & 0o7777))
            default:
                throw .notRegular(kind: FileKind.words(status.st_mode))
            }
        }
    }

    /// Where a path leads once its symbolic links are followed.
    enum Target {
        case descriptor(Int32)
        case missing(String)
        case existing(String, stat)
    }

    /// `path` with its links followed (each relative one from its own directory), at most 40.
    static func resolve(_ path: String) throws(Failure) -> Target {
        var current = path
        for _ in 0..<40 {
            if let descriptor = FileDescriptorPath.descriptor(of: current) { return .descriptor(descriptor) }
            var status = stat()
            guard lstat(current, &status) == 0 else {
                if errno == ENOENT || errno == ENOTDIR { return .missing(current) }
                throw .system(errno)
            }
            guard status.st_mode & S_IFMT == S_IFLNK else { return .existing(current, status) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw .system(errno) }
            let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : directory(of: current) + "/" + link
        }
        throw .system(ELOOP)
    }

    /// The directory part of `path` ("." for a bare name).
    static func directory(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    /// Refuses a missing directory, or a path through something that is not one.
    private static func requireDirectory(_ directory: String) throws(Failure) {
        var status = stat()
        if stat(directory, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(directory) }
            return
        }
        if errno == ENOTDIR, let blocker = firstNonDirectory(above: directory) { throw .notADirectory(blocker) }
        if errno == EACCES { throw .directoryNotWritable(directory) }
        throw .noDirectory(directory)
    }

    /// The nearest existing ancestor of `path` when it is not a directory (a file in the way).
    private static func firstNonDirectory(above path: String) -> String? {
        var current = path
        while true {
            let parent = directory(of: current)
            guard parent != current else { return nil }
            current = parent
            var status = stat()
            if stat(current, &status) == 0 { return status.st_mode & S_IFMT == S_IFDIR ? nil : current }
        }
    }

    /// `mkdir -p directory`, naming what stopped it.
    private static func makeDirectories(_ directory: String) throws(Failure) {
        var status = stat()
        if stat(directory, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(directory) }
            return
        }
        let parent = Self.directory(of: directory)
        if parent != directory { try makeDirectories(parent) }
        guard mkdir(directory, 0o777) != 0, errno != EEXIST else { return }
        switch errno {
        case EACCES, EPERM: throw .directoryNotWritable(parent)
        case ENOENT: throw .noDirectory(directory)
        default: throw .system(errno)
        }
    }

    /// Writes the file through a temporary file beside it, renamed over it.
    private static func replace(
        _ path: String,
        with bytes: [UInt8],
        existing: stat?,
        _ options: Options
    ) throws(Failure) {
        let directory = directory(of: path)
        let name = (path as NSString).lastPathComponent
        let stem = name.utf8.count <= 100 ? "." + name : ""
        let createMode: mode_t = existing == nil && !options.isPrivate ? 0o666 : 0o600
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<16 {
            temporary = directory + "/" + stem + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, createMode)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else {
            switch errno {
            case EACCES, EPERM: throw .directoryNotWritable(directory)
            case ENOENT: throw .noDirectory(directory)
            default: throw .system(errno)
            }
        }
        var problem: Failure?
        if let existing { problem = keep(existing, on: descriptor, isPrivate: options.isPrivate) }
        if problem == nil, let code = DescriptorWriter.writeAll(bytes, to: descriptor) { problem = .system(code) }
        if problem == nil, fsync(descriptor) != 0 { problem = .system(errno) }
        if close(descriptor) != 0, problem == nil { problem = .system(errno) }
        if problem == nil, rename(temporary, path) != 0 { problem = .system(errno) }
        if let problem {
            unlink(temporary)
            throw problem
        }
        // The rename itself is made durable too.
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Gives the temporary file the replaced file's owner, group and mode (a private file's
    /// without its group and other bits); nil when done.
    private static func keep(_ existing: stat, on descriptor: Int32, isPrivate: Bool) -> Failure? {
        var own = stat()
        guard fstat(descriptor, &own) == 0 else { return .system(errno) }
        if own.st_uid != existing.st_uid || own.st_gid != existing.st_gid {
            guard fchown(descriptor, existing.st_uid, existing.st_gid) == 0 else { return .otherOwner }
        }
        let mode = existing.st_mode & (isPrivate ? 0o700 : 0o7777)
        guard fchmod(descriptor, mode) == 0 else { return .system(errno) }
        return nil
    }

    /// Writes to a FIFO or a device as it is (`/dev/full`, a FIFO a reader holds open).
    private static func writeThrough(_ path: String, _ bytes: [UInt8], mode: Int) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENXIO: throw .noReader
            case EACCES: throw .notWritable(mode: mode)
            default: throw .system(errno)
            }
        }
        defer { close(descriptor) }
        // Opened without waiting; written with waiting (a pipe's reader may be slower than bts).
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        if let code = DescriptorWriter.writeAll(bytes, to: descriptor) { throw .system(code) }
    }
}
