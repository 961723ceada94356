import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// POSIX access to the history file, safe between processes: every operation holds an
/// exclusive `flock` on the file, and re-opens it when a concurrent trim replaced it.
struct HistoryFile {
    let path: String

    /// Appends one entry (escaped) with a single write under the lock.
    func append(_ entry: String) throws(HistoryStoreError) {
        let descriptor = try openLocked(flags: O_WRONLY | O_APPEND)
        defer { close(descriptor) }
        try writeAll(descriptor, HistoryFileFormat.escape(entry) + "\n")
    }

    /// Reads all entries; when there are more than `limit` lines, rewrites the file with the
    /// newest `limit` entries (temp file + rename under the lock). Returns the kept entries.
    func loadTrimming(limit: Int) throws(HistoryStoreError) -> [String] {
        let descriptor = try openLocked(flags: O_RDWR)
        defer { close(descriptor) }
        let contents = try readAll(descriptor)
        let lineCount = contents.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let entries = Array(HistoryFileFormat.parse(contents).suffix(limit))
        if lineCount > limit { try replace(with: entries) }
        return entries
    }

    // MARK: helpers

    /// Opens (creating with 0600, directories with 0700) and locks the current file at `path`.
    private func openLocked(flags: Int32) throws(HistoryStoreError) -> Int32 {
        try ensureDirectory((path as NSString).deletingLastPathComponent)
        while true {
            let descriptor = open(path, flags | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw HistoryStoreError(operation: "open", path: path, code: errno) }
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & 0o077 != 0 {
                _ = fchmod(descriptor, 0o600)
            }
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
            guard result == 0 else {
                let code = errno
                close(descriptor)
                throw HistoryStoreError(operation: "lock", path: path, code: code)
            }
            // A trim may have renamed a new file into place while we waited: lock that one instead.
            var current = stat()
            if fstat(descriptor, &status) == 0, stat(path, &current) == 0,
                status.st_ino == current.st_ino, status.st_dev == current.st_dev
            {
                return descriptor
            }
            close(descriptor)
        }
    }

    /// Creates `directory` and missing parents with mode 0700.
    private func ensureDirectory(_ directory: String) throws(HistoryStoreError) {
        guard !directory.isEmpty else { return }
        var status = stat()
        if stat(directory, &status) == 0 { return }
        try ensureDirectory((directory as NSString).deletingLastPathComponent)
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw HistoryStoreError(operation: "create directory", path: directory, code: errno)
        }
    }

    private func readAll(_ descriptor: Int32) throws(HistoryStoreError) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw HistoryStoreError(operation: "read", path: path, code: errno)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func writeAll(_ descriptor: Int32, _ text: String) throws(HistoryStoreError) {
        if let code = DescriptorWriter.writeAll(Array(text.utf8), to: descriptor) {
            throw HistoryStoreError(operation: "write", path: path, code: code)
        }
    }

    /// Writes `entries` to a temporary file beside `path` and renames it over `path`.
    private func replace(with entries: [String]) throws(HistoryStoreError) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw HistoryStoreError(operation: "open", path: temporary, code: errno) }
        do {
            try writeAll(descriptor, HistoryFileFormat.render(entries))
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        _ = fsync(descriptor)
        close(descriptor)
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw HistoryStoreError(operation: "rename", path: path, code: code)
        }
    }
}
