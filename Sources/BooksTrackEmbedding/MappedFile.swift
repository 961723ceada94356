import Foundation

/// A file mapped read-only into memory (`mmap`, private, unmapped at deinit). The model's 87 MB of
/// weights are used where they lie: the kernel pages in what a forward pass touches, nothing is copied.
/// A mapping follows the file: rewritten or truncated in place (`cp` over it, `unzip -o`), its pages
/// change or vanish (SIGBUS). A long-running process reads the file into memory of its own instead
/// (`copied`).
package final class MappedFile: @unchecked Sendable {
    // Immutable after init: the mapping is read-only and lives as long as this object.
    package let bytes: UnsafeRawBufferPointer

    /// Maps the file at `path`; nil when it cannot be opened, is empty or cannot be mapped.
    /// `hugePages`: advise huge pages for the mapping (`MADV_HUGEPAGE`). What the file's pages are
    /// in the page cache decides how they map: where the kernel keeps a file in 2 MB folios
    /// (measured with ext4 on Linux 6.18), a mapping whose cold pages were read in under this advice maps
    /// each 2 MB with one page-table entry, in this process and in every later one while the pages
    /// stay cached, so the model's layer weights take almost no page faults or unmapping
    /// (docs/meaning.md). `scripts/setup` reads the weights in that way once they are installed.
    /// Where the advice is refused or the cache holds small pages, nothing else changes.
    /// `copied`: read the file into anonymous memory the process owns (read-only once read), which
    /// nothing done to the file afterwards can touch.
    package init?(path: String, hugePages: Bool = false, copied: Bool = false) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        if copied {
            guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                base != MAP_FAILED
            else { return nil }
            if hugePages { _ = madvise(base, size, MADV_HUGEPAGE) }
            guard Self.read(fd, into: base, count: size) else {
                munmap(base, size)
                return nil
            }
            _ = mprotect(base, size, PROT_READ)
            bytes = UnsafeRawBufferPointer(start: base, count: size)
            return
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        if hugePages { _ = madvise(base, size, MADV_HUGEPAGE) }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    /// Reads `count` bytes of `fd` from its start into `base`; false when the file ends first.
    private static func read(_ fd: Int32, into base: UnsafeMutableRawPointer, count: Int) -> Bool {
        var done = 0
        while done < count {
            let got = pread(fd, base + done, count - done, off_t(done))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return false }
            done += got
        }
        return true
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
