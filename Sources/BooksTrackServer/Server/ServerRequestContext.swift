import Hummingbird
import NIOCore

/// The request context of every local-server route: Hummingbird's core storage plus the client
/// address used as the rate-limit key.
package struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The connected peer, when known.
    package let remoteAddress: SocketAddress?
    /// The client IP ("127.0.0.1"), or "unknown" when the channel has no peer address.
    package let clientAddress: String

    package init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Large enough for a CSV upload (8 MB) plus multipart overhead; JSON routes read with
    /// their own, smaller bound.
    package var maxUploadSize: Int { 9 * 1024 * 1024 }
}
