import Foundation

/// A file mapped read-only into memory (`mmap`, private, unmapped at deinit). The model's 87 MB of
/// weights are used where they lie: the kernel pages in what a forward pass touches, nothing is copied.
public final class MappedFile: @unchecked Sendable {
    // Immutable after init: the mapping is read-only and lives as long as this object.
    public let bytes: UnsafeRawBufferPointer

    /// Maps the file at `path`; nil when it cannot be opened, is empty or cannot be mapped.
    /// `hugePages`: advise huge pages for the mapping (`MADV_HUGEPAGE`). What the file's pages are
    /// in the page cache decides how they map: where the kernel keeps a file in 2 MB folios
    /// (measured with ext4 on Linux 6.18), a mapping whose cold pages were read in under this advice maps
    /// each 2 MB with one page-table entry, in this process and in every later one while the pages
    /// stay cached, so the model's layer weights take almost no page faults or unmapping
    /// (docs/meaning.md). `scripts/setup` reads the weights in that way once they are installed.
    /// Where the advice is refused or the cache holds small pages, nothing else changes.
    public init?(path: String, hugePages: Bool = false) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        if hugePages { _ = madvise(base, size, MADV_HUGEPAGE) }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
