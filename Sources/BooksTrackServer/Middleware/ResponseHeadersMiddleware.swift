import Foundation
import Hummingbird

/// The outermost middleware: turns every thrown error into the failure envelope and stamps
/// `X-Response-Time`, `X-Response-Format: v2.0`, `X-Fault-Injection: active` (when enabled) and, when
/// configured, the deprecation headers of legacy `/v1` routes on every response.
struct ResponseHeadersMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let services: ServerServices

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let apiError = services.apiError(from: error, request: request)
            // v3 routes answer RFC 9457 problems, also for a middleware's refusal (rate limit, fault).
            response =
                V3Wire.isV3(request.uri.path)
                ? V3Problem(apiError).response(
                    to: request,
                    now: services.now(),
                    dialect: services.configuration.dialect
                ) : apiError.response()
        }
        let elapsed = ContinuousClock.now - started
        let ms = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        response.headers[.xResponseTime] = "\(ms)ms"
        response.headers[.xResponseFormat] = "v2.0"
        if services.faults.isEnabled {
            response.headers[.xFaultInjection] = "active"
        }
        if let legacy = services.configuration.legacyDeprecation, request.uri.path.hasPrefix("/v1/") {
            response.headers[.deprecation] = legacy.deprecation
            if let sunset = legacy.sunset { response.headers[.sunset] = sunset }
            if let link = legacy.link { response.headers[.link] = link }
        }
        return response
    }
}
