import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird

extension JobRoutes {
    static func registerImports<Context: RequestContext>(
        on router: Router<Context>,
        engine source: JobEngineSource,
        clientIP: @escaping @Sendable (Request, Context) -> String
    ) {
        // POST /api/v2/imports — multipart/form-data with a `file` part (or a text/csv body).
        router.post(RouterPath(APIPath.imports)) { request, context -> Response in
            let started = ContinuousClock.now
            let maxFile = source.configuration.maxCSVBytes
            let tooLarge = JobHTTP.error(
                .fileTooLarge,
                "the CSV file is larger than \(maxFile / (1024 * 1024)) MB (\(CSVImportParser.grouped(maxFile)) bytes)"
            )
            let bodyLimit = maxFile + CSVUpload.multipartOverhead
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > bodyLimit {
                await CSVUpload.drain(request.body)
                return tooLarge
            }
            if let refusal = await source.refusal(owner: clientIP(request, context)) { return refusal.earlyResponse }
            let csv: [UInt8]
            do {
                let body = try await CSVUpload.collect(request.body, limit: bodyLimit)
                csv = try CSVUpload.extractFile(
                    contentType: request.headers[.contentType],
                    body: body,
                    maxFileBytes: maxFile
                )
            } catch CSVUpload.Failure.tooLarge {
                return tooLarge
            } catch CSVUpload.Failure.missingFilePart {
                return JobHTTP.error(.missingParameter, "the multipart body has no part named 'file'")
            } catch CSVUpload.Failure.invalid(let message) {
                return JobHTTP.error(.invalidRequest, message)
            } catch {
                return JobHTTP.error(.invalidRequest, "could not read the request body")
            }
            let engine = try source.engine()
            do throws(JobEngine.SubmissionError) {
                let record = try await engine.submitImport(csv: csv, owner: clientIP(request, context))
                let accepted = ImportAccepted(jobId: record.id, authToken: record.authToken, token: record.authToken)
                return JobHTTP.success(accepted, status: .accepted, started: started)
            } catch {
                return error.response
            }
        }

        // GET /api/v2/imports/{id} — status (imports and batches).
        router.get("/api/v2/imports/:id") { _, context -> Response in
            let started = ContinuousClock.now
            guard let id = jobID(context) else { return JobHTTP.error(.invalidRequest, "malformed job id") }
            guard let record = try await source.engine().record(of: id) else { return JobHTTP.notFound(job: id) }
            return JobHTTP.success(record.wireStatus, started: started)
        }

        // GET /api/v2/imports/{id}/results and GET /v1/jobs/{id}/results.
        router.get("/api/v2/imports/:id/results") { _, context -> Response in
            guard let id = jobID(context) else { return JobHTTP.error(.invalidRequest, "malformed job id") }
            return await resultsResponse(engine: try source.engine(), id: id, started: .now)
        }
        router.get("/v1/jobs/:id/results") { _, context -> Response in
            guard let id = jobID(context) else { return JobHTTP.error(.invalidRequest, "malformed job id") }
            return await resultsResponse(engine: try source.engine(), id: id, started: .now)
        }

        // GET /api/v2/imports/{id}/stream — Server-Sent Events.
        router.get("/api/v2/imports/:id/stream") { request, context -> Response in
            let accept = request.headers[values: .accept].joined(separator: ",").lowercased()
            guard accept.contains("text/event-stream") else {
                return JobHTTP.error(
                    .invalidAcceptHeader,
                    "this route streams Server-Sent Events: send 'Accept: text/event-stream'"
                )
            }
            let id = context.parameters.get("id") ?? ""
            let lastEventID = JobHeader.lastEventID.flatMap { request.headers[$0] }
            return JobSSE.response(engine: try source.engine(), jobID: id, lastEventID: lastEventID)
        }
    }
}
