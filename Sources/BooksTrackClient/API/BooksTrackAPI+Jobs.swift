import BooksTrackContract
import Foundation

/// A job's results: a CSV import summary, or the per-book rows of a batch enrichment.
public enum JobResults: Sendable, Hashable, Decodable {
    case csvImport(ImportResults)
    case batch([BatchItemResult])

    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let rows = try? single.decode([BatchItemResult].self) {
            self = .batch(rows)
            return
        }
        let probe = try single.decode(JSONValue.self)
        if let rows = probe["results"], rows.arrayValue != nil {
            struct Wrapped: Decodable { var results: [BatchItemResult] }
            self = .batch(try single.decode(Wrapped.self).results)
            return
        }
        self = .csvImport(try single.decode(ImportResults.self))
    }
}

extension BooksTrackAPI {
    static func pathSegment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: RequestSpec.queryAllowed) ?? id
    }

    /// `GET /api/v2/imports/{jobId}` — job status (also serves batch jobs on the stand-in).
    public func jobStatus(_ jobID: String) async throws(BooksTrackError) -> APIResponse<BooksTrackContract.JobStatus> {
        var spec = RequestSpec(.GET, "/api/v2/imports/\(Self.pathSegment(jobID))", rateLimitClass: .jobs)
        spec.notFoundMessage = "Job \(jobID) not found."
        return try await call(BooksTrackContract.JobStatus.self, spec)
    }

    /// Job results: `GET /api/v2/imports/{id}/results` for imports, `GET /v1/jobs/{id}/results` for
    /// batch jobs (kept 1 h / 2 h after completion, then 404).
    public func jobResults(_ jobID: String, pipeline: Pipeline = .csvImport) async throws(BooksTrackError) -> APIResponse<JobResults> {
        let path = pipeline == .batchEnrichment
            ? "/v1/jobs/\(Self.pathSegment(jobID))/results" : "/api/v2/imports/\(Self.pathSegment(jobID))/results"
        var spec = RequestSpec(.GET, path, rateLimitClass: .jobs)
        spec.notFoundMessage = "No results for job \(jobID) (unknown job, not finished, or results expired)."
        return try await call(JobResults.self, spec)
    }

    /// `DELETE /v1/jobs/{jobId}` with `Authorization: Bearer <authToken>` (idempotent on the stand-in).
    /// A `token` that a refresh has since replaced is swapped for the job's current one.
    public func cancelJob(_ jobID: String, token: String) async throws(BooksTrackError) -> APIResponse<CancelResponse> {
        var presented = presentableToken(for: jobID, given: token) ?? token
        var attempt = 1
        while true {
            var spec = RequestSpec(.DELETE, "/v1/jobs/\(Self.pathSegment(jobID))", rateLimitClass: .jobs)
            spec.headers = [HeaderField(name: "Authorization", value: "Bearer \(presented)")]
            spec.notFoundMessage = "Job \(jobID) not found."
            do throws(BooksTrackError) {
                let response = try await call(CancelResponse.self, spec)
                jobEnded(jobID)
                return response
            } catch {
                // A refresh that landed while the DELETE was in flight replaced the token it carried:
                // try once more with the new one.
                let current = presentableToken(for: jobID, given: token) ?? token
                guard error.httpStatus == 401, attempt == 1, current != presented else { throw error }
                presented = current
                attempt += 1
            }
        }
    }
}
