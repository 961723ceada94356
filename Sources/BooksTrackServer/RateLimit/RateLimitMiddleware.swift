import BooksTrackContract
import Hummingbird

/// Counts requests against the limiter and answers 429 `RATE_LIMIT_EXCEEDED` (with `Retry-After`
/// in seconds and `retryAfterMs`) once the window is used up. Every response of a limited route,
/// errors included, carries `X-RateLimit-Limit/Remaining/Reset` (Reset in epoch seconds). When
/// several limiters apply (global and class), the innermost one's headers win.
package struct RateLimitMiddleware: RouterMiddleware {
    package typealias Context = ServerRequestContext

    let services: ServerServices
    let classify: @Sendable (Request) -> BudgetClass?

    init(services: ServerServices, classify: @escaping @Sendable (Request) -> BudgetClass?) {
        self.services = services
        self.classify = classify
    }

    package func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // Limits off (`--rate-limits off`): no rule to check, so no classifying either.
        guard !services.rateLimiter.rules.isEmpty, let limitClass = classify(request),
            let decision = services.rateLimiter.check(limitClass, client: context.clientAddress)
        else {
            return try await next(request, context)
        }
        let headers = Self.headers(for: decision, limitClass: limitClass)
        guard decision.allowed else {
            var fields = headers
            fields[.retryAfter] = String(decision.retryAfterSeconds)
            throw APIError(
                .rateLimitExceeded,
                ErrorCode.rateLimitExceeded.userMessage(retryAfterSeconds: decision.retryAfterSeconds),
                retryAfterMs: decision.retryAfterSeconds * 1000,
                details: [
                    "retryAfter": .number(Double(decision.retryAfterSeconds)),
                    "requestsLimit": .number(Double(decision.limit)),
                    "requestsRemaining": .number(0),
                    "limitClass": .string(limitClass.rawValue),
                    "endpoint": .string(request.uri.path),
                ],
                headers: fields
            )
        }
        do {
            var response = try await next(request, context)
            Self.merge(headers, into: &response.headers)
            return response
        } catch {
            var apiError = services.apiError(from: error, request: request)
            Self.merge(headers, into: &apiError.headers)
            throw apiError
        }
    }

    static func headers(for decision: RateLimitDecision, limitClass: BudgetClass) -> HTTPFields {
        var fields = HTTPFields()
        fields[.xRateLimitLimit] = String(decision.limit)
        fields[.xRateLimitRemaining] = String(decision.remaining)
        fields[.xRateLimitReset] = String(decision.resetEpochSeconds)
        fields[.xRateLimitClass] = limitClass.rawValue
        return fields
    }

    /// Adds the rate-limit headers unless an inner limiter already set them.
    static func merge(_ headers: HTTPFields, into target: inout HTTPFields) {
        guard target[.xRateLimitLimit] == nil else { return }
        for field in headers { target[field.name] = field.value }
    }
}
