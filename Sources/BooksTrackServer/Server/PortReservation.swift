import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A loopback port held for a server that starts listening later: a bound, not listening socket
/// with `SO_REUSEADDR`, which no other socket can bind (nor an ephemeral port reuse) until it is
/// closed, while the server's own `SO_REUSEADDR` listener may bind it alongside. The embedded
/// backend names its address up front and opens the socket only when a stream or upload needs it.
final class PortReservation: Sendable {
    let port: Int
    private let descriptor: Mutex<Int32?>

    /// Reserves a free port on `host` (an IPv4 address such as 127.0.0.1).
    init(host: String) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else {
            throw LocalServerError(message: "cannot reserve a port: \(String(cString: strerror(errno)))")
        }
        var yes: Int32 = 1
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok =
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) == 0
            && inet_pton(AF_INET, host, &address.sin_addr) == 1
            && withUnsafePointer(
                to: &address,
                {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 }
                }
            )
            && withUnsafeMutablePointer(
                to: &address,
                {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
                }
            )
        guard ok else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw LocalServerError(message: "cannot reserve a port on \(host): \(reason)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptor = Mutex(fd)
    }

    /// Whether the port is still held (not released yet).
    var isHeld: Bool { descriptor.withLock { $0 != nil } }

    /// Lets the port go (the listener holds it now, or the server is done). Idempotent.
    func release() {
        if let fd = descriptor.withLock({ fd -> Int32? in
            defer { fd = nil }
            return fd
        }) {
            close(fd)
        }
    }

    deinit { release() }
}
