import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// What `LocalServer.makeParts` builds: the routes' responder, and what the listening application
/// adds to it (made by `application(onListening:)` only when a socket is wanted).
struct ServerParts: Sendable {
    let responder: RouterResponder<ServerRequestContext>
    let server: HTTPServerBuilder
    let host: String
    let port: Int
    /// Connections served at once (`ServerConfiguration.maxConnections`).
    let maxConnections: Int
    /// Connections waiting in the kernel's queue (`ServerConfiguration.listenBacklog`).
    let listenBacklog: Int
    /// Counts the open connections for the limit.
    let connections: ConnectionGauge
    let services: [any Service]
    /// Runs every module's clean-up.
    let onShutdown: @Sendable () async -> Void
    let logger: Logger

    /// The same routes answering in this process, without a socket.
    var inProcessResponder: LocalResponder {
        let responder = self.responder
        return LocalResponder(
            respond: { try await responder.respond(to: $0, context: $1) },
            logger: logger,
            authority: port == 0 ? host : "\(host):\(port)"
        )
    }

    /// The application serving the routes on `host:port`; `onListening` gets the bound port.
    func application(onListening: @escaping @Sendable (Int) -> Void) -> some ApplicationProtocol {
        let port = self.port
        return Application(
            responder: responder,
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port),
                serverName: nil,
                backlog: listenBacklog,
                availableConnectionsDelegate: ConnectionSlots(limit: maxConnections, gauge: connections)
            ),
            services: services,
            onServerRunning: { channel in
                // One accept per read: the accept gate is asked before each, so a batch (NIO
                // accepts up to 4 a read) never takes the server past `maxConnections`.
                try? await channel.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
                onListening(channel.localAddress?.port ?? port)
            },
            logger: logger
        )
    }
}
