import BooksTrackContract
import Hummingbird
import Logging

extension APIError {
    /// Turns anything a handler or middleware threw into the contract's error: `APIError` as is,
    /// Hummingbird's 404 for an unknown route (or 405 when only the method is wrong), 413 for a body
    /// over the bound, decoding errors as 400 `INVALID_REQUEST`, and everything else as 500
    /// `INTERNAL_ERROR` (logged, never shown in detail; at debug level when the client went away).
    static func from(_ error: any Error, request: Request, routes: RouteTable, logger: Logger) -> APIError {
        if let error = error as? APIError { return error }
        if let error = error as? any HTTPResponseError {
            switch error.status {
            case .notFound:
                let allowed = routes.methods(for: request.uri.path)
                if !allowed.isEmpty, !allowed.contains(request.method) {
                    var headers = HTTPFields()
                    headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
                    return APIError(
                        .invalidRequest,
                        "Method \(request.method.rawValue) is not allowed on \(request.uri.path); use "
                            + allowed.map(\.rawValue).joined(separator: " or "),
                        status: .methodNotAllowed,
                        details: ["allow": .array(allowed.map { .string($0.rawValue) })],
                        headers: headers
                    )
                }
                return APIError(
                    .notFound,
                    "No route for \(request.method.rawValue) \(request.uri.path)",
                    details: ["path": .string(request.uri.path)]
                )
            case .contentTooLarge:
                return APIError(.invalidRequest, "The request body is too large", status: .contentTooLarge)
            default:
                let code = ErrorCode(httpStatus: error.status.code)
                let message = (error as? HTTPError)?.body ?? error.status.reasonPhrase
                return APIError(code, message, status: error.status)
            }
        }
        if error is DecodingError {
            return APIError(.invalidRequest, "The request could not be decoded")
        }
        // A client that went away mid-request is an ordinary end, not a fault (`ConnectionEnd`).
        logger.log(
            level: ConnectionEnd.isOrdinary(error) ? .debug : .error,
            "unhandled error",
            metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"]
        )
        return APIError(.internalError, "Internal server error")
    }
}
