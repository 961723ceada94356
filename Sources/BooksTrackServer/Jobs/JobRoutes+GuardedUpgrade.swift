import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket

extension HTTPServerBuilder {
    /// HTTP/1 with WebSocket upgrade behind the request-head guard (the upgrade pipeline has no
    /// error handling or idle timer until the first head is decoded).
    static func guardedWebSocketUpgrade(
        webSocketRouter: Router<BasicWebSocketRequestContext>,
        configuration: HTTP1WebSocketUpgradeChannel.Configuration,
        limits: RequestHeadLimits
    ) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            GuardedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    webSocketResponder: webSocketResponder,
                    configuration: configuration
                ),
                limits: limits
            )
        }
    }
}
