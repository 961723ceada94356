import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird

extension JobRoutes {
    static func registerCancel<Context: RequestContext>(on router: Router<Context>, engine source: JobEngineSource) {
        let handler: @Sendable (Request, Context) async -> Response = { request, context in
            let started = ContinuousClock.now
            let challenge: HTTPFields = [.wwwAuthenticate: "Bearer"]
            guard let token = bearerToken(request.headers[.authorization]) else {
                return JobHTTP.error(
                    .unauthorized,
                    "Authorization: Bearer <authToken> is required to cancel a job",
                    extraHeaders: challenge
                )
            }
            guard let id = jobID(context) else { return JobHTTP.error(.invalidRequest, "malformed job id") }
            guard let engine = source.engineIfAvailable else { return JobEngineSource.unavailable }
            switch await engine.cancel(id, token: token) {
            case .notFound:
                return JobHTTP.notFound(job: id)
            case .unauthorized(let reason):
                return JobHTTP.error(.unauthorized, reason, extraHeaders: challenge)
            case .canceled(let record, let cleanup):
                let body = CancelResponse(
                    jobId: record.id,
                    status: .canceled,
                    message: "Job canceled after \(record.processedCount) of \(record.totalCount) items",
                    cleanup: cleanup
                )
                return JobHTTP.success(body, started: started)
            case .alreadyFinished(let record):
                let body = CancelResponse(
                    jobId: record.id,
                    status: record.status,
                    message: "Job had already ended (\(record.status.rawValue)); nothing to cancel",
                    cleanup: ["alreadyFinished": true]
                )
                return JobHTTP.success(body, started: started)
            }
        }
        router.delete("/v1/jobs/:id") { request, context in await handler(request, context) }
        router.delete("/api/v2/jobs/:id/cancel") { request, context in await handler(request, context) }

        // POST /api/token/refresh {jobId, oldToken} → {jobId, token, expiresIn}.
        router.post(RouterPath(APIPath.tokenRefresh)) { request, _ -> Response in
            let started = ContinuousClock.now
            let body: ByteBuffer
            do {
                body = try await CSVUpload.collect(request.body, limit: 16 * 1024)
            } catch {
                return JobHTTP.error(.invalidRequest, "the request body must be a small JSON object {jobId, oldToken}")
            }
            guard
                let refresh = try? JSONCoding.decoder().decode(
                    TokenRefreshBody.self,
                    from: Data(body.readableBytesView)
                )
            else {
                return JobHTTP.error(.invalidRequest, "invalid JSON body; send {jobId, oldToken}")
            }
            guard let id = refresh.jobId, !id.isEmpty else {
                return JobHTTP.error(.missingParameter, "jobId is required")
            }
            guard let old = refresh.oldToken, !old.isEmpty else {
                return JobHTTP.error(.missingParameter, "oldToken is required")
            }
            guard let engine = source.engineIfAvailable else { return JobEngineSource.unavailable }
            switch await engine.refreshToken(of: id, oldToken: old) {
            case .notFound:
                return JobHTTP.notFound(job: id)
            case .unauthorized(let reason):
                return JobHTTP.error(.unauthorized, reason)
            case .tooEarly(let seconds):
                let window = Int(source.configuration.tokenRefreshWindow.jobSeconds / 60)
                return JobHTTP.error(
                    .invalidRequest,
                    "a token can be refreshed only in the last \(window) min of its life; try again in \(seconds) s"
                )
            case .refreshed(let token, let expiresIn):
                return JobHTTP.success(
                    TokenRefreshResponse(jobId: id, token: token, expiresIn: expiresIn),
                    started: started
                )
            }
        }
    }

    /// The token of `Authorization: Bearer <token>` (scheme case-insensitive).
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

/// Body of `POST /api/token/refresh`, decoded leniently so that a missing field gets a precise 400.
struct TokenRefreshBody: Codable, Sendable {
    var jobId: String?
    var oldToken: String?
}
