import HummingbirdCore
import Synchronization

/// How many connections the server has open now, and the most it had at once.
final class ConnectionGauge: Sendable {
    private let counts = Mutex((open: 0, peak: 0))

    /// Connections open now (accepted and not yet closed).
    var open: Int { counts.withLock { $0.open } }
    /// The most connections open at once since the server started.
    var peak: Int { counts.withLock { $0.peak } }

    func opened() {
        counts.withLock { counts in
            counts.open += 1
            counts.peak = max(counts.peak, counts.open)
        }
    }

    func closed() {
        counts.withLock { $0.open -= 1 }
    }
}

/// The server's connection limit, as Hummingbird's accept gate (`AvailableConnectionsChannelHandler`)
/// asks it: before each accept whether a slot is free, and on each close it accepts again when one
/// is. Connections past the limit wait in the kernel's listen queue (`ServerConfiguration.listenBacklog`)
/// and hold no file descriptor meanwhile; the server accepts one connection per read
/// (`ServerParts.application`), so the limit is never passed by an accept batch.
struct ConnectionSlots: AvailableConnectionsDelegate {
    let limit: Int
    let gauge: ConnectionGauge

    mutating func connectionOpened() { gauge.opened() }

    mutating func connectionClosed() { gauge.closed() }

    func isAcceptingNewConnections() -> Bool { gauge.open < limit }
}
