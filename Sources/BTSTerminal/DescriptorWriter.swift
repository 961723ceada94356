#if canImport(Glibc)
import Glibc
#endif

/// Writing to a file descriptor (stdout, stderr, a pipe, the history file) without losing bytes.
package enum DescriptorWriter {
    /// Writes every byte of `bytes` to `descriptor`, retrying partial writes and EINTR. Returns nil
    /// when all were written, else the errno that stopped it (EIO when the descriptor took nothing).
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                offset += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return count < 0 ? errno : EIO
            }
        }
        return nil
    }
}
