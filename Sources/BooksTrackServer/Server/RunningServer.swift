import Foundation
import ServiceLifecycle
import Synchronization

/// A server started in-process by `LocalServer.start`. Call `shutdown()` when done.
package final class RunningServer: Sendable {
    /// The bound port (the real one when the configuration asked for port 0).
    package let port: Int
    /// The bound host.
    package let host: String
    /// `http://host:port`, without a trailing slash.
    package let baseURL: URL
    /// The shared server state (configuration, catalog, limiter…).
    package let services: ServerServices

    /// The same routes answering in this process, without the socket (`LocalResponder`).
    package let responder: LocalResponder

    private let listener: ServerListener
    private let onShutdown: @Sendable () async -> Void
    private let stopped = Mutex(false)

    init(
        host: String,
        port: Int,
        services: ServerServices,
        listener: ServerListener,
        onShutdown: @escaping @Sendable () async -> Void,
        responder: LocalResponder
    ) {
        self.responder = responder
        self.host = host
        self.port = port
        self.services = services
        self.listener = listener
        self.onShutdown = onShutdown
        let urlHost = host.contains(":") ? "[\(host)]" : host
        self.baseURL = URL(string: "http://\(urlHost):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Opens the socket at `baseURL` if it is not open yet (a server started `.onDemand`); throws
    /// when it cannot listen or was shut down.
    package func listen() async throws {
        _ = try await listener.listen()
    }

    /// Whether the server still holds the port it reserved (started `.onDemand`, never listened, not shut down).
    var holdsReservedPort: Bool { get async { await listener.holdsReservedPort } }

    /// The live fault rules: `running.faults.set([...])` (no effect unless fault injection is enabled).
    package var faults: FaultInjector { services.faults }

    /// The configuration the server runs with.
    package var configuration: ServerConfiguration { services.configuration }

    /// Stops accepting connections, lets in-flight requests finish, and returns when the server is
    /// down and every module has cleaned up. Calling it again does nothing.
    package func shutdown() async {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        await listener.stop()
        await onShutdown()
    }
}
