import Foundation
import NIOCore
import NIOHTTP1

/// Whether an error is a connection ending the ordinary way — the client closed or reset it, or
/// it went away in the middle of a request body — rather than a fault of the server. Such an end is
/// logged at debug level; anything else stays an error.
enum ConnectionEnd {
    /// The `errno` values of a peer that went away: reset, broken pipe, aborted, timed out.
    static let ordinaryErrnos: Set<CInt> = [ECONNRESET, EPIPE, ECONNABORTED, ETIMEDOUT, ENOTCONN]

    /// The channel states of a connection that is closed or half-closed.
    static let ordinaryChannelErrors: [ChannelError] = [
        .eof, .ioOnClosedChannel, .alreadyClosed, .inputClosed, .outputClosed,
    ]

    static func isOrdinary(_ error: any Error) -> Bool {
        switch error {
        case let error as IOError:
            return ordinaryErrnos.contains(error.errnoCode)
        case let error as ChannelError:
            return ordinaryChannelErrors.contains(error)
        case let error as HTTPParserError:
            // The connection ended before the request's body did.
            return error == .invalidEOFState
        default:
            return false
        }
    }
}
