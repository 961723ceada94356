import BooksTrackContract
import Foundation

/// The pure rules of speaking API v3 (bendv3 `src/api-v3/index.ts`, `jobs/*.ts` @ e40ae5d): how a
/// search offset becomes a page, what a job id and a job token look like there, which routes a job is
/// asked at, and which results a finished job is reported with. No I/O, no state: ``BooksTrackAPI``
/// keeps what it learned (pipelines, tokens, results) and passes it in.
enum V3Mapping {
    /// `/v3/books/search` is paged by `page` (an `offset` is ignored there): the query of the page that
    /// holds `offset`, and how many rows of it come before `offset` (dropped from the answer).
    static func searchQuery(
        _ query: String,
        limit: Int?,
        offset: Int
    ) -> (items: [(name: String, value: String)], skip: Int) {
        let size = min(
            max(limit ?? SearchPageLimits.defaultLimit, V3Limits.searchPage.lowerBound),
            V3Limits.searchPage.upperBound
        )
        let page = offset / size + 1
        var items: [(name: String, value: String)] = [
            ("q", String(query.prefix(SearchPageLimits.queryLength))), ("limit", String(size)),
        ]
        if page > 1 { items.append(("page", String(page))) }
        return (items, offset % size)
    }

    /// The v3 route of a job: `/v3/jobs/{imports|enrichment|scans}/{id}` (+ `suffix`); an import's
    /// when the pipeline is not known.
    static func jobPath(_ jobID: String, pipeline: Pipeline?, suffix: String = "") -> String {
        KnownRoute.v3Job(pipeline ?? .csvImport, suffix: suffix).path(RequestSpec.encode(jobID))
    }

    /// The pipelines to ask about a job: the known one, else all three. Production's job objects are
    /// keyed by id alone (jobs/common.ts `getJobStateManagerDO`), so any route finds any job there; a
    /// stand-in routes by pipeline.
    static func candidates(known: Pipeline?) -> [Pipeline] {
        if let known { return [known] }
        return [.csvImport, .batchEnrichment, .bookshelfScan]
    }

    /// A v3 job id is a UUID (`z.string().uuid()` on every job route): any other is unknown there,
    /// said as such rather than as the server's "Validation failed: jobId: Invalid uuid".
    static func requireJobID(_ jobID: String) throws(BooksTrackError) {
        guard UUID(uuidString: jobID) == nil else { return }
        throw BooksTrackError(
            code: .notFound,
            kind: .api,
            message: "Job \(jobID) is unknown to this server (its job ids are UUIDs).",
            httpStatus: 404
        )
    }

    /// 64 lowercase hex (jobs/common.ts `validateTokenFormat`): a refreshed UUID token is not one.
    static func isJobToken(_ token: String) -> Bool {
        token.utf8.count == 64 && token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The job token to present on a v3 stream: the one from the job's 202 (`kept`), else `given`,
    /// whichever is a v3 job token first.
    static func streamToken(kept: String?, given: String?) -> String? {
        for candidate in [kept, given] {
            if let token = candidate, isJobToken(token) { return token }
        }
        return nil
    }

    /// The results a v3 results route's `body` reports. An empty list may be production's bug (its
    /// results routes answer `results: []`), not "nothing found": only a list with books is whole
    /// (the ISBNs `requested` and missing from it are not found), and the books a `completed` event
    /// carried (`kept`) win over an empty list.
    static func results(
        _ body: JSONValue,
        pipeline: Pipeline,
        requested: [String]?,
        kept: JobResults?
    ) -> JobResults {
        let listed = body.arrayValue?.isEmpty == false
        let results = JobResults(v3: body, pipeline: pipeline, requested: listed ? requested : nil)
        if results.isEmpty, let kept, !kept.isEmpty { return kept }
        return results
    }

    /// A cancel answered 409: the job had already finished.
    static func alreadyFinished(_ error: BooksTrackError, jobID: String) -> BooksTrackError {
        var finished = error
        finished.code = .conflict
        finished.message = "Job \(jobID) has already finished; there is nothing to cancel."
        return finished
    }
}
