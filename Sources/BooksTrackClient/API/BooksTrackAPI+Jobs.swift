import BooksTrackContract
import Foundation
import NIOHTTP1

extension BooksTrackAPI {
    static func pathSegment(_ id: String) -> String {
        RequestSpec.encode(id)
    }

    /// `GET /api/v2/imports/{jobId}` — job status (also serves batch jobs on the stand-in and on
    /// production's refactored job store). A server without that route (router.ts 078b7da has no v2
    /// routes) is asked at `GET /v1/jobs/{jobId}/status`.
    package func jobStatus(
        _ jobID: String,
        pipeline: Pipeline? = nil
    ) async throws(BooksTrackError) -> APIResponse<BooksTrackContract.JobStatus> {
        if dialect == .v3 { return try await v3JobStatus(jobID, pipeline: pipeline) }
        let id = Self.pathSegment(jobID)
        var spec = RequestSpec(.GET, KnownRoute.importStatus.path(id))
        spec.notFoundMessage = "Job \(jobID) not found."
        do {
            return try await call(BooksTrackContract.JobStatus.self, spec)
        } catch  where Self.isMissingRoute(error) {
            var fallback = RequestSpec(.GET, KnownRoute.jobStatus.path(id))
            fallback.notFoundMessage = spec.notFoundMessage
            return try await call(BooksTrackContract.JobStatus.self, fallback)
        }
    }

    /// Job results. Imports are asked at `GET /api/v2/imports/{id}/results`, batch jobs at
    /// `GET /v1/jobs/{id}/results` (kept 1 h / 2 h after completion, then 404). Production router
    /// versions differ in which of the two they route (and both serve every pipeline), so a 404 at
    /// the first is asked again at the other before it is reported.
    package func jobResults(
        _ jobID: String,
        pipeline: Pipeline = .csvImport
    ) async throws(BooksTrackError) -> APIResponse<JobResults> {
        if dialect == .v3 { return try await v3JobResults(jobID, pipeline: pipeline) }
        let id = Self.pathSegment(jobID)
        if pipeline == .bookshelfScan {
            var spec = RequestSpec(.GET, KnownRoute.scanResults.path(id))
            spec.offering = "scan results"
            spec.notFoundMessage = "No results for scan \(jobID) (unknown job, not finished, or results expired)."
            return try await call(JobResults.self, spec)
        }
        let v1 = KnownRoute.jobResults.path(id)
        let v2 = KnownRoute.importResults.path(id)
        let paths = pipeline == .batchEnrichment ? [v1, v2] : [v2, v1]
        var firstError: BooksTrackError?
        for path in paths {
            var spec = RequestSpec(.GET, path)
            spec.notFoundMessage = "No results for job \(jobID) (unknown job, not finished, or results expired)."
            do {
                return try await call(JobResults.self, spec)
            } catch  where error.httpStatus == 404 {
                // Prefer the answer of a route that exists ("results expired") over "no such route".
                if firstError == nil || (firstError.map(Self.isMissingRoute) ?? false) { firstError = error }
            }
        }
        throw firstError ?? BooksTrackError(code: .notFound, kind: .api, message: "No results for job \(jobID).")
    }

    /// `DELETE /v1/jobs/{jobId}` with `Authorization: Bearer <authToken>` (idempotent on the stand-in),
    /// then `DELETE /api/v2/jobs/{jobId}/cancel` when the first answers 404. A `token` that a refresh
    /// has since replaced is swapped for the job's current one.
    ///
    /// Production cannot always cancel: router.ts 078b7da has no cancel route at all, and 758fe1a's
    /// routes look the token up in the legacy progress object while batch and import jobs keep it in
    /// the WebSocket connection object, so they answer 404 "Job not found" for a job that exists. When
    /// both routes say 404 but the job's status is readable, the error says plainly that this server
    /// cannot cancel jobs (``BooksTrackError/cannotCancel(jobID:detail:)``), not "job not found".
    package func cancelJob(
        _ jobID: String,
        token: String,
        pipeline: Pipeline? = nil
    ) async throws(BooksTrackError) -> APIResponse<CancelResponse> {
        if dialect == .v3 { return try await v3Cancel(jobID, pipeline: pipeline) }
        let id = Self.pathSegment(jobID)
        var firstError: BooksTrackError?
        for path in [KnownRoute.jobCancel.path(id), KnownRoute.jobCancelV2.path(id)] {
            do {
                return try await cancelJob(jobID, token: token, path: path)
            } catch  where error.httpStatus == 404 || (error.httpStatus == 405 && firstError != nil) {
                if firstError == nil { firstError = error }
            }
        }
        let notFound = firstError ?? BooksTrackError(code: .notFound, kind: .api, message: "Job \(jobID) not found.")
        // Does the job exist? Then the server, not the job, is the problem.
        do {
            _ = try await jobStatus(jobID)
        } catch {
            if error.httpStatus == 404 { throw notFound }
        }
        let said = notFound.apiError?.message ?? notFound.detail
        throw BooksTrackError.cannotCancel(
            jobID: jobID,
            detail:
                "both cancel routes answered 404 (\(said.isEmpty ? "no message" : said)) for a job whose status is readable"
        )
    }

    func cancelJob(
        _ jobID: String,
        token: String,
        path: String
    ) async throws(BooksTrackError) -> APIResponse<CancelResponse> {
        var presented = presentableToken(for: jobID, given: token) ?? token
        var attempt = 1
        while true {
            var spec = RequestSpec(.DELETE, path)
            spec.headers = [HeaderField(name: "Authorization", value: "Bearer \(presented)")]
            spec.notFoundMessage = "Job \(jobID) not found."
            do throws(BooksTrackError) {
                let response = try await call(CancelResponse.self, spec)
                jobEnded(jobID)
                return response
            } catch {
                // A refresh that landed while the DELETE was in flight replaced the token it carried:
                // try once more with the new one (once that refresh's answer is in).
                guard error.httpStatus == 401, attempt == 1 else { throw error }
                await refreshSettled(jobID)
                let current = presentableToken(for: jobID, given: token) ?? token
                guard current != presented else { throw error }
                presented = current
                attempt += 1
            }
        }
    }

    /// A 404 meaning "no such route" rather than "no such job": production's router answers
    /// `Endpoint not found: METHOD /path` (router.ts notFound), the stand-in `No route for …`.
    static func isMissingRoute(_ error: BooksTrackError) -> Bool {
        guard error.httpStatus == 404 || error.httpStatus == 405 else { return false }
        if error.httpStatus == 405 { return true }
        let text = (error.apiError?.message ?? error.detail).lowercased()
        return text.hasPrefix("endpoint not found") || text.hasPrefix("no route for")
    }
}
