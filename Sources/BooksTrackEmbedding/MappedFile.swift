import Foundation

/// A file mapped read-only into memory (`mmap`, private, unmapped at deinit). The model's 87 MB of
/// weights are used where they lie: the kernel pages in what a forward pass touches, nothing is copied.
public final class MappedFile: @unchecked Sendable {
    // Immutable after init: the mapping is read-only and lives as long as this object.
    public let bytes: UnsafeRawBufferPointer

    /// Maps the file at `path`; nil when it cannot be opened, is empty or cannot be mapped.
    public init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
