import BooksTrackCatalog
import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird

/// A v3 job route's `{pipeline}` (`src/api-v3/jobs/imports.ts` @ 075ee29; enrichment and scans alike).
enum V3Pipeline: String, Sendable {
    case imports, enrichment, scans

    /// The engine's pipeline.
    var engine: JobPipeline {
        switch self {
        case .imports: return .csvImport
        case .enrichment: return .batchEnrichment
        case .scans: return .bookshelfScan
        }
    }

    /// The route segment of an engine pipeline.
    init(_ pipeline: JobPipeline) {
        switch pipeline {
        case .csvImport: self = .imports
        case .batchEnrichment: self = .enrichment
        case .bookshelfScan: self = .scans
        }
    }

    /// `type` of the status body: the pipeline's wire name.
    var type: String { engine.rawValue }

    /// "Import job not found", "Enrichment job not found", "Scan job not found".
    var notFound: String {
        switch self {
        case .imports: return "Import job not found"
        case .enrichment: return "Enrichment job not found"
        case .scans: return "Scan job not found"
        }
    }
}

/// `{pipeline}` and `{id}` of a v3 job route, as given.
struct V3JobPath: Sendable {
    var pipeline: String
    var id: String

    init(_ context: ServerRequestContext) {
        pipeline = context.parameters.get("pipeline") ?? ""
        id = context.parameters.get("id") ?? ""
    }

    /// A UUID (`z.string().uuid()`), case-insensitive.
    static func isUUID(_ text: String) -> Bool { UUID(uuidString: text) != nil && text.utf8.count == 36 }
}

extension V3Handlers {
    // MARK: Submission

    /// The engine of the job routes module; 501 when this server has none.
    func requireEngine() throws -> JobEngineSource {
        guard let source = engineSource else {
            throw V3Problem(.featureNotAvailable, "This server runs no background jobs")
        }
        return source
    }

    /// A refused submission as a problem.
    /// `closing`: refused before the upload's body was read; the connection closes after the answer.
    static func problem(_ error: JobEngine.SubmissionError, closing: Bool) -> V3Problem {
        var problem = problem(error)
        if closing { problem.headers[.connection] = "close" }
        return problem
    }

    static func problem(_ error: JobEngine.SubmissionError) -> V3Problem {
        switch error {
        case .tooManyConcurrentJobs(let limit):
            return V3Problem(
                .rateLimitExceeded,
                "Too many unfinished jobs for this client (limit \(limit))",
                retryAfterMs: 5000
            )
        case .serverBusy(let limit):
            var problem = V3Problem(
                .serviceUnavailable,
                "The server is running as many jobs as it takes (\(limit)); try again when one has finished",
                status: 503,
                retryAfterMs: 5000
            )
            problem.headers[.retryAfter] = "5"
            return problem
        case .jobIDInUse(let id):
            return V3Problem(.invalidRequest, "jobId '\(id)' is already in use")
        case .shuttingDown:
            return V3Problem(.internalError, "The server is shutting down; try again shortly", status: 503)
        }
    }

    /// `POST /v3/jobs/imports`: multipart `file` (≤ 8 MB, else 413 `FILE_TOO_LARGE`), the existing import
    /// pipeline; 202 as `accepted`.
    func submitImport(_ request: Request, owner: String) async throws -> Response {
        let source = try requireEngine()
        try services.require(.csvImport)
        let maxFile = source.configuration.maxCSVBytes
        let size = request.headers[.contentLength].map { "File size: \($0) bytes, " } ?? ""
        let tooLarge = V3Problem(
            .fileTooLarge,
            "CSV file exceeds \(maxFile / (1024 * 1024))MB limit. \(size)max allowed: \(maxFile) bytes."
        )
        let type = request.headers[.contentType]
        guard type?.lowercased().contains("multipart/form-data") == true else {
            throw V3Problem(
                .invalidRequest,
                "Expected Content-Type: multipart/form-data with file field. Received: \(type ?? "none"). "
                    + "Hint: Use FormData with file field containing CSV data."
            )
        }
        let bodyLimit = maxFile + CSVUpload.multipartOverhead
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > bodyLimit {
            await CSVUpload.drain(request.body)
            throw tooLarge
        }
        if let refusal = await source.refusal(owner: owner) { throw Self.problem(refusal, closing: true) }
        let csv: [UInt8]
        do {
            let body = try await CSVUpload.collect(request.body, limit: bodyLimit)
            csv = try CSVUpload.extractFile(contentType: type, body: body, maxFileBytes: maxFile)
        } catch CSVUpload.Failure.tooLarge {
            throw tooLarge
        } catch CSVUpload.Failure.missingFilePart {
            throw V3Problem(.invalidRequest, "Missing file in multipart form data")
        } catch {
            throw V3Problem(.invalidRequest, "Invalid multipart form data")
        }
        let engine = try source.engine()
        let record: JobRecord
        do throws(JobEngine.SubmissionError) {
            record = try await engine.submitImport(csv: csv, owner: owner)
        } catch {
            throw Self.problem(error)
        }
        return accepted(record, pipeline: .imports, request: request)
    }

    /// `POST /v3/jobs/scans`: multipart `photos[]`, 1–5 photos (JPEG, PNG or WebP by content), at most
    /// 10 MB each (413) and 50 MB together (413), as `src/api-v3/jobs/scans.ts` @ 0077bbc refuses them;
    /// the stand-in reads their ISBN barcodes (`JobEngine.runScan`).
    func submitScan(_ request: Request, owner: String) async throws -> Response {
        let source = try requireEngine()
        try services.require(.bookshelfScan)
        if let refusal = await source.refusal(owner: owner) { throw Self.problem(refusal, closing: true) }
        let photos: [[UInt8]]
        switch await ScanUpload.photos(of: request) {
        case .success(let read): photos = read
        case .failure(let refusal):
            throw V3Problem(refusal.code, refusal.message, status: refusal.code == .fileTooLarge ? 413 : 400)
        }
        let engine = try source.engine()
        let record: JobRecord
        do throws(JobEngine.SubmissionError) {
            record = try await engine.submitScan(photos: photos, owner: owner)
        } catch {
            throw Self.problem(error)
        }
        return accepted(record, pipeline: .scans, request: request)
    }

    /// 202 `{success, data: {jobId, status: "queued", streamUrl, token}, metadata, _links: {self, stream, cancel}}`.
    /// `streamUrl` is absolute on the request's host: `http://` here, `https://` always in the production
    /// dialect (`jobs/common.ts` `buildStreamUrl` @ 00c2471).
    func accepted(_ record: JobRecord, pipeline: V3Pipeline, request: Request) -> Response {
        let job = V3Wire.origin(of: request, dialect: dialect) + "/v3/jobs/\(pipeline.rawValue)/\(record.id)"
        let data: JSONValue = [
            "jobId": .string(record.id), "status": "queued", "streamUrl": .string("\(job)/stream"),
            "token": .string(record.authToken),
        ]
        let links: JSONValue = [
            "self": V3Wire.link(job), "stream": V3Wire.link("\(job)/stream", rel: "related"),
            "cancel": V3Wire.link(job, rel: "related", method: "DELETE"),
        ]
        return V3Wire.success(data, status: .accepted, now: services.now(), links: links)
    }

    // MARK: Status, results, cancel

    /// The pipeline and UUID of a job route, or the refusal: an unknown pipeline is an unknown route.
    private func validated(_ path: V3JobPath, _ request: Request) throws -> (V3Pipeline, String)? {
        guard let pipeline = V3Pipeline(rawValue: path.pipeline) else { return nil }
        guard V3JobPath.isUUID(path.id) else {
            throw V3Problem.validation(field: "jobId", "Invalid uuid", code: "invalid_string")
        }
        return (pipeline, path.id)
    }

    /// The job of this pipeline (404 problem otherwise). The production dialect finds any job by its id
    /// whatever the route's pipeline: production keys its job objects by the id alone (jobs/common.ts
    /// `getJobStateManagerDO` @ 00c2471), so `/v3/jobs/enrichment/<import id>` answers the import.
    private func job(_ pipeline: V3Pipeline, _ id: String) async throws -> (JobEngine, JobRecord) {
        let engine = try requireEngine().engine()
        guard let record = await engine.record(of: id),
            dialect == .production || pipeline.engine == record.pipeline
        else {
            throw V3Problem.notFound(pipeline.notFound)
        }
        return (engine, record)
    }

    /// The status as production's job object stores it (`initialized`, `processing`, `completed`,
    /// `failed`; a cancel records `failed`), quoted raw in the results and cancel refusals
    /// (jobs/imports.ts @ 075ee29).
    static func storedStatus(_ state: JobState) -> String { state == .canceled ? "failed" : state.rawValue }

    /// `GET /v3/jobs/{pipeline}/{id}`.
    func jobStatus(_ request: Request, _ path: V3JobPath) async throws -> Response {
        guard let (pipeline, id) = try validated(path, request) else { return endpointNotFound(request) }
        let (_, record) = try await job(pipeline, id)
        return V3Wire.success(Self.status(record), now: services.now())
    }

    /// `{jobId, type, status, progress, processedCount, totalCount, startTime, completedTime?, error?}`.
    /// The engine's `initialized` is `queued`; a canceled job is `failed` with `CANCELED` (production's
    /// cancel records the job through its error path).
    static func status(_ record: JobRecord) -> JSONValue {
        let type = V3Pipeline(record.pipeline).type
        var object: [String: JSONValue] = [
            "jobId": .string(record.id), "type": .string(type), "status": .string(wireStatus(record.status)),
            "progress": .number(record.progress), "processedCount": .number(Double(record.processedCount)),
            "totalCount": .number(Double(record.totalCount)),
            "startTime": .string(ISO8601.string(from: record.startTime)),
        ]
        if let completed = record.completedTime { object["completedTime"] = .string(ISO8601.string(from: completed)) }
        if let error = wireError(status: record.status, error: record.error) { object["error"] = error }
        return .object(object)
    }

    static func wireStatus(_ state: JobState) -> String {
        switch state {
        case .initialized: return "queued"
        case .canceled: return "failed"
        default: return state.rawValue
        }
    }

    /// The nested `{code, message, retryable}` of a failed or canceled job.
    static func wireError(status: JobState, error: JobError?) -> JSONValue? {
        if status == .canceled {
            return ["code": "CANCELED", "message": "Job canceled by user", "retryable": false]
        }
        guard let error else { return nil }
        return [
            "code": .string(error.code.rawValue.uppercased()), "message": .string(error.message),
            "retryable": .bool(error.retryable),
        ]
    }

    /// `GET /v3/jobs/{pipeline}/{id}/results`: `{jobId, status, results: [Book]}` once completed, else 404
    /// `Job not completed. Current status: X`. The production dialect answers `results: []` always
    /// (`jobs/common.ts` `fetchJobResults` reads an object where the schema wants an array).
    func jobResults(_ request: Request, _ path: V3JobPath) async throws -> Response {
        guard let (pipeline, id) = try validated(path, request) else { return endpointNotFound(request) }
        let (engine, record) = try await job(pipeline, id)
        guard record.status == .completed else {
            throw V3Problem.notFound("Job not completed. Current status: \(Self.storedStatus(record.status))")
        }
        let kind = V3Pipeline(record.pipeline)
        var results: JSONValue = .array(dialect == .production ? [] : await books(of: engine, id: id, pipeline: kind))
        // An import's results are the stored object itself (imports.ts @ 075ee29 answers the KV object
        // `csv-results:{id}` as `results`), with its row errors; production's newer schema wants an
        // array and its fetch finds none (the production dialect's `[]`).
        if dialect != .production, kind == .imports, case .ready(_, let stored) = await engine.results(of: id),
            let object = try? JSONCoding.decoder().decode(JSONValue.self, from: stored), object.objectValue != nil
        {
            results = object
        }
        let data: JSONValue = ["jobId": .string(id), "status": "completed", "results": results]
        return V3Wire.success(data, now: services.now())
    }

    /// The books a completed job produced, as v3 Books: an import's created books, an enrichment's
    /// found books (enriched form).
    func books(of engine: JobEngine, id: String, pipeline: V3Pipeline) async -> [JSONValue] {
        guard case .ready(_, let data) = await engine.results(of: id) else { return [] }
        let decoder = JSONCoding.decoder()
        switch pipeline {
        case .imports:
            let results = (try? decoder.decode(ImportResults.self, from: data))?.books ?? []
            return results.map { V3Book(imported: $0).json(dialect) }
        case .enrichment:
            let items = (try? decoder.decode([BatchItemResult].self, from: data)) ?? []
            return items.compactMap { item in
                guard item.success, let isbn = item.isbn,
                    let book = try? services.catalog.book(isbn13: V3Wire.isbn13(isbn))
                else { return nil }
                return V3Book(catalog: book).json(dialect, enriched: true)
            }
        case .scans:
            let found = (try? decoder.decode([DetectedBook].self, from: data)) ?? []
            return found.compactMap { try? JSONValueEncoder().encode($0) }
        }
    }

    /// `DELETE /v3/jobs/{pipeline}/{id}`: a running job is canceled and answered 200 with its status
    /// (`failed`, error `CANCELED`); an ended one is 409 `CONFLICT` "Cannot cancel job in <status> status".
    func cancel(_ request: Request, _ path: V3JobPath) async throws -> Response {
        guard let (pipeline, id) = try validated(path, request) else { return endpointNotFound(request) }
        try services.require(.jobCancellation)
        let (engine, record) = try await job(pipeline, id)
        switch await engine.cancel(id, token: record.authToken) {
        case .canceled(let canceled, _):
            return V3Wire.success(Self.status(canceled), now: services.now())
        case .alreadyFinished(let ended):
            throw V3Problem(
                ErrorCode("CONFLICT"),
                "Cannot cancel job in \(Self.storedStatus(ended.status)) status",
                status: 409
            )
        case .notFound, .unauthorized:
            throw V3Problem.notFound(pipeline.notFound)
        }
    }
}
