import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    /// A header name written in this file; every one is a valid token, checked by the tests.
    private static func constant(_ name: String) -> HTTPField.Name {
        guard let field = HTTPField.Name(name) else {
            preconditionFailure("invalid header name literal \(name)")
        }
        return field
    }

    static let xErrorType = constant("X-Error-Type")
    static let xResponseTime = constant("X-Response-Time")
    static let xResponseFormat = constant("X-Response-Format")
    static let xRateLimitLimit = constant("X-RateLimit-Limit")
    static let xRateLimitRemaining = constant("X-RateLimit-Remaining")
    static let xRateLimitReset = constant("X-RateLimit-Reset")
    static let xRateLimitClass = constant("X-RateLimit-Class")
    static let xCache = constant("X-Cache")
    static let xFaultInjection = constant("X-Fault-Injection")
    static let xCustomError = constant("X-Custom-Error")
    static let xIdempotentReplay = constant("X-Idempotent-Replay")
    static let deprecation = constant("Deprecation")
    static let sunset = constant("Sunset")
    static let link = constant("Link")
}
