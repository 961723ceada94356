import Hummingbird

extension HTTPResponse.Status {
    /// The status for `code` with its standard reason phrase (HTTPTypes' `init(code:)` leaves it empty).
    static func canonical(_ code: Int) -> HTTPResponse.Status {
        switch code {
        case 400: return .badRequest
        case 401: return .unauthorized
        case 403: return .forbidden
        case 404: return .notFound
        case 405: return .methodNotAllowed
        case 413: return .contentTooLarge
        case 429: return .tooManyRequests
        case 500: return .internalServerError
        case 502: return .badGateway
        case 503: return .serviceUnavailable
        case 504: return .gatewayTimeout
        default: return HTTPResponse.Status(code: code)
        }
    }
}
