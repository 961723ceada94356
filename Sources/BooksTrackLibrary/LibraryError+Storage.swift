import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension LibraryError {
    /// What the file system says about the library's files after a write failed with SQLite's I/O
    /// error (SQLite reports a refused write, `EFBIG` past `ulimit -f` or `ENOSPC` from an extending
    /// write alike, as `SQLITE_IOERR_WRITE`).
    struct StorageFacts: Sendable, Hashable {
        /// The process's file-size limit (`RLIMIT_FSIZE`) in bytes; nil: unlimited.
        var fileSizeLimit: UInt64?
        /// The largest of the library's files (the database, its `-wal` and `-shm`) in bytes.
        var largestFile: UInt64
        /// Bytes free for this user on the library's file system; nil: unknown.
        var freeBytes: UInt64?
    }

    /// A file within this much of the file-size limit, or a file system with less than this free,
    /// is what stopped the write (SQLite writes pages of up to 64 KB, and a WAL checkpoint more).
    static let storageMargin: UInt64 = 1 << 20

    /// The facts for the library at `path`, read now.
    static func storageFacts(path: String) -> StorageFacts {
        var limit = rlimit()
        let fileSizeLimit: UInt64? =
            getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max
            ? UInt64(limit.rlim_cur) : nil
        var largest: UInt64 = 0
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            if stat(file, &info) == 0 { largest = max(largest, UInt64(max(0, info.st_size))) }
        }
        var volume = statvfs()
        let directory = (path as NSString).deletingLastPathComponent
        let free: UInt64? =
            statvfs(directory.isEmpty ? "." : directory, &volume) == 0
            ? UInt64(volume.f_bavail) * UInt64(volume.f_frsize) : nil
        return StorageFacts(fileSizeLimit: fileSizeLimit, largestFile: largest, freeBytes: free)
    }

    /// Names what a failed write most likely was: the file-size limit, a full disk, or (neither
    /// seen) the disk itself. `full`: SQLite said `SQLITE_FULL`, which it also says for a write cut
    /// short by the file-size limit.
    static func ioFailure(_ facts: StorageFacts, full: Bool = false) -> String {
        if let limit = facts.fileSizeLimit, facts.largestFile + storageMargin >= limit {
            return "the file-size limit was hit (ulimit -f allows \(Self.size(limit)) a file; "
                + "'ulimit -f unlimited' lifts it)"
        }
        if let free = facts.freeBytes, free < storageMargin {
            return "the disk is full (\(Self.size(free)) free where the library is)"
        }
        if full { return "the disk is full" }
        return "an I/O error (the disk could not be read or written)"
    }

    /// `512 KB`, `3 MB`.
    static func size(_ bytes: UInt64) -> String {
        bytes >= 10 << 20 ? "\(bytes >> 20) MB" : "\(bytes >> 10) KB"
    }
}
