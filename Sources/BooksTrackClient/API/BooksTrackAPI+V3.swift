import BooksTrackContract
import Foundation
import NIOHTTP1

/// The v3 routes of each call (bendv3 `src/api-v3/index.ts`, `discovery.ts`, `jobs/*.ts` @ e40ae5d).
extension BooksTrackAPI {
    /// `GET /v3/books/{isbn13}`: the flat Book, enveloped (`ETag`, `Cache-Control: max-age=3600`).
    func v3LookUp(_ isbn: ISBN) async throws(BooksTrackError) -> APIResponse<SearchResults> {
        var spec = RequestSpec(.GET, KnownRoute.v3Book.path(isbn.isbn13))
        spec.cacheTTL = AnswerLifetimes.isbnLookup
        spec.offering = "ISBN lookup"
        return try await call(SearchResults.self, spec)
    }

    /// `GET /v3/books/search?q=&limit=&page=`: paged by `page` (an `offset` is ignored there, and
    /// `_links.next` carries one, so it is never followed). `offset` is turned into the page that
    /// holds it; rows before it on that page are dropped.
    func v3SearchTitle(
        _ query: String,
        limit: Int?,
        offset: Int
    ) async throws(BooksTrackError) -> APIResponse<SearchResults> {
        let (items, skip) = V3Mapping.searchQuery(query, limit: limit, offset: offset)
        var spec = RequestSpec(.GET, APIPath.v3Search, query: items)
        spec.offering = "title search"
        var response = try await call(V3SearchPage.self, spec).map(\.results)
        if skip > 0 { response.value.items = Array(response.value.items.dropFirst(skip)) }
        return response
    }

    /// `POST /v3/books/enrich {isbns: [isbn13]}` (sync): the book, or 404 when no provider knows it.
    func v3Enrich(_ isbn: ISBN) async throws(BooksTrackError) -> APIResponse<EnrichedBook> {
        var spec = RequestSpec(.POST, APIPath.v3Enrich)
        spec.body = .json(try Self.json(V3EnrichRequest(isbns: [isbn.isbn13], async: nil)))
        spec.offering = "enrichment"
        spec.notFoundMessage = "Book not found: no provider knows \(isbn.isbn13)."
        let response = try await call(V3EnrichResult.self, spec)
        guard let book = response.value.books.first else {
            throw BooksTrackError(
                code: .notFound,
                kind: .api,
                message: spec.notFoundMessage ?? ErrorCode.notFound.userMessage(),
                detail: "v3 enrich answered no book",
                httpStatus: response.info.status,
                url: response.info.url
            )
        }
        return response.map { _ in book }
    }

    /// `POST /v3/books/enrich {isbns, async: true}`: a batch is always a job on v3 (sync mode takes at
    /// most 50 ISBNs, async up to 500; packages/schemas/src/enrich.ts), followed like any other job.
    func v3BatchEnrich(_ isbns: [String]) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        guard isbns.count <= V3Limits.asyncEnrich else {
            throw BooksTrackError.invalidInput(
                "API v3 enriches at most \(V3Limits.asyncEnrich) ISBNs in one job (\(isbns.count) given).",
                code: .batchTooLarge
            )
        }
        var spec = RequestSpec(.POST, APIPath.v3Enrich)
        spec.body = .json(try Self.json(V3EnrichRequest(isbns: isbns, async: true)))
        spec.createsWork = true
        spec.offering = "batch enrichment"
        let accepted = try await call(V3JobAccepted.self, spec)
        adopt(job: accepted.value, pipeline: .batchEnrichment)
        if v3Requested.count > 64 { v3Requested.removeAll(keepingCapacity: true) }
        v3Requested[accepted.value.jobId] = isbns
        return accepted.map {
            BatchJobAccepted(jobId: $0.jobId, authToken: $0.token, totalCount: isbns.count, sseUrl: $0.streamUrl)
        }
    }

    /// `POST /v3/jobs/imports` (multipart `file`, 8 MB).
    func v3Import(
        _ upload: MultipartFileBody,
        timeout: Duration
    ) async throws(BooksTrackError) -> APIResponse<ImportAccepted> {
        var spec = RequestSpec(.POST, APIPath.v3Imports)
        spec.body = .multipart(upload)
        spec.createsWork = true
        spec.timeout = timeout
        spec.offering = "CSV import"
        let accepted = try await call(V3JobAccepted.self, spec)
        adopt(job: accepted.value, pipeline: .csvImport)
        return accepted.map { ImportAccepted(jobId: $0.jobId, authToken: $0.token, sseUrl: $0.streamUrl) }
    }

    func adopt(job: V3JobAccepted, pipeline: Pipeline) {
        remember(job: job.jobId, pipeline: pipeline)
        if v3Tokens.count > 256 { v3Tokens.removeAll(keepingCapacity: true) }
        if !job.token.isEmpty { v3Tokens[job.jobId] = job.token }
    }

    /// The v3 route of a job (``V3Mapping/jobPath(_:pipeline:suffix:)``), its pipeline as given or
    /// as remembered.
    func v3JobPath(_ jobID: String, pipeline: Pipeline?, suffix: String = "") -> String {
        V3Mapping.jobPath(jobID, pipeline: pipeline ?? jobPipelines[jobID], suffix: suffix)
    }

    /// `GET /v3/jobs/{pipeline}/{id}`.
    func v3JobStatus(
        _ jobID: String,
        pipeline: Pipeline?,
        retries: Bool = true
    ) async throws(BooksTrackError) -> APIResponse<BooksTrackContract.JobStatus> {
        try V3Mapping.requireJobID(jobID)
        var last: BooksTrackError?
        for candidate in V3Mapping.candidates(known: pipeline ?? jobPipelines[jobID]) {
            var spec = RequestSpec(.GET, v3JobPath(jobID, pipeline: candidate))
            spec.retries = retries
            spec.offering = "job status"
            spec.notFoundMessage = "Job \(jobID) not found."
            do {
                let response = try await call(BooksTrackContract.JobStatus.self, spec)
                remember(job: jobID, pipeline: candidate)
                return response
            } catch  where error.category == .notFound || error.category == .usage {
                last = error
            }
        }
        throw last ?? BooksTrackError(code: .notFound, kind: .api, message: "Job \(jobID) not found.")
    }

    /// `GET /v3/jobs/{pipeline}/{id}/results`; an empty list from a job whose `completed` event
    /// carried books (production's bug) gives the books kept from that event.
    func v3JobResults(_ jobID: String, pipeline: Pipeline?) async throws(BooksTrackError) -> APIResponse<JobResults> {
        try V3Mapping.requireJobID(jobID)
        var spec = RequestSpec(.GET, v3JobPath(jobID, pipeline: pipeline, suffix: "/results"))
        spec.offering = "job results"
        spec.notFoundMessage = "No results for job \(jobID) (unknown job, not finished, or results expired)."
        let known = pipeline ?? jobPipelines[jobID] ?? .csvImport
        do {
            let response = try await call(V3JobResultsBody.self, spec)
            let results = V3Mapping.results(
                response.value.results,
                pipeline: known,
                requested: v3Requested[jobID],
                kept: v3Results[jobID]
            )
            return response.map { _ in results }
        } catch  where error.category == .notFound {
            if let kept = v3Results[jobID] {
                return APIResponse(value: kept, info: ResponseInfo(method: "GET", url: spec.path, status: 200))
            }
            throw error
        }
    }

    /// `DELETE /v3/jobs/{pipeline}/{id}`: 200 with the job (`status: failed`, `error.code: CANCELED`)
    /// is a cancel; 409 means the job had already finished.
    func v3Cancel(_ jobID: String, pipeline: Pipeline?) async throws(BooksTrackError) -> APIResponse<CancelResponse> {
        try V3Mapping.requireJobID(jobID)
        var spec = RequestSpec(.DELETE, v3JobPath(jobID, pipeline: pipeline))
        spec.offering = "job cancellation"
        spec.notFoundMessage = "Job \(jobID) is unknown to this server."
        do {
            let response = try await call(CancelResponse.self, spec)
            jobEnded(jobID)
            return response
        } catch  where error.httpStatus == 409 {
            throw V3Mapping.alreadyFinished(error, jobID: jobID)
        }
    }

    /// The job token to present on a v3 stream: the one from the job's 202 (64 lowercase hex).
    func v3StreamToken(_ jobID: String, given: String?) -> String? {
        V3Mapping.streamToken(kept: v3Tokens[jobID], given: given)
    }

    /// Keeps what a v3 `completed` event carried.
    func keep(results: JobResults, of jobID: String) {
        if v3Results.count > 64 { v3Results.removeAll(keepingCapacity: true) }
        v3Results[jobID] = results
    }

    /// Keeps the results a v3 job's `completed` event carried (`value`), read against the ISBNs the
    /// job was asked for.
    func keep(v3Results value: JSONValue, of jobID: String, pipeline: Pipeline) {
        keep(results: JobResults(v3: value, pipeline: pipeline, requested: v3Requested[jobID]), of: jobID)
    }
}
