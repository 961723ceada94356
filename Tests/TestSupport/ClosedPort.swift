import Foundation

/// A TCP port on 127.0.0.1 with nothing listening: bound and never listened on, and kept bound for
/// the rest of the test process, so that a connection is refused and no other test's server (on
/// port 0) can be given the port meanwhile (a port closed at once can be; the "unreachable" server
/// then answers: the likely cause of a full-suite run's exit 0 instead of 3).
package func closedPort() -> Int { loopbackPort(listening: false) }

/// A TCP port on 127.0.0.1 that accepts connections (the kernel completes them) and never answers:
/// listened on, never accepted, kept for the rest of the test process. A request to it times out.
package func silentPort() -> Int { loopbackPort(listening: true) }

/// A socket bound to a free port on 127.0.0.1 (listening when asked), kept open; its port.
private func loopbackPort(listening: Bool) -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    if listening { _ = listen(descriptor, 64) }
    _ = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
