import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird

/// The job routes (docs/contract.md §4 batch + cancel, §5 imports + SSE, §6 WebSocket), as a
/// `ServerRouteModule` (see `JobRoutes+Module.swift`) or registered by hand with the static functions.
///
/// Rate-limit classes (§7): `import` for `POST /api/v2/imports`, `batch` for the two batch POSTs,
/// `jobs` for status, results, cancel and token refresh, as `BudgetClass.classify` decides
/// (`services.rateLimitByRoute()`). SSE streams and the WebSocket are limited only by `global`.
package struct JobRoutes: Sendable {
    let dataDirectory: URL?
    let clock: (any JobClock)?
    let opensLazily: Bool
    let configureEngine: @Sendable (inout JobEngineConfiguration) -> Void

    /// Registers every HTTP job route on `router`. `clientIP` names the client for the
    /// per-client concurrent-job limit and job ownership.
    package static func register<Context: RequestContext>(
        on router: Router<Context>,
        engine: JobEngine,
        clientIP: @escaping @Sendable (Request, Context) -> String
    ) {
        register(on: router, engine: JobEngineSource(engine), clientIP: clientIP)
    }

    /// Registers every HTTP job route with an engine that may be opened by the first job request.
    package static func register<Context: RequestContext>(
        on router: Router<Context>,
        engine source: JobEngineSource,
        clientIP: @escaping @Sendable (Request, Context) -> String
    ) {
        registerImports(on: router, engine: source, clientIP: clientIP)
        registerScans(on: router, engine: source, clientIP: clientIP)
        registerBatch(on: router, engine: source, clientIP: clientIP)
        registerCancel(on: router, engine: source)
    }

    /// Registers every HTTP job route, naming clients by their remote IP address.
    package static func register<Context: RemoteAddressRequestContext>(on router: Router<Context>, engine: JobEngine) {
        register(on: router, engine: engine) { _, context in context.remoteAddress?.ipAddress ?? "unknown" }
    }

    /// The job id path parameter, validated (1…128 of `A-Z a-z 0-9 . _ : -`).
    static func jobID<Context: RequestContext>(_ context: Context) -> String? {
        guard let id = context.parameters.get("id"), isValidJobID(id) else { return nil }
        return id
    }

    static func isValidJobID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._:-".unicodeScalars.contains($0))
            }
    }

    /// Results of a job (§4 array for batches, §5 object for imports).
    static func resultsResponse(engine: JobEngine, id: String, started: ContinuousClock.Instant) async -> Response {
        switch await engine.results(of: id) {
        case .ready(_, let body):
            return JobHTTP.success(rawData: body, started: started)
        case .notFound:
            return JobHTTP.notFound(job: id)
        case .unavailable(let record):
            switch record.status {
            case .failed:
                let reason = record.error.map { "\($0.code.rawValue): \($0.message)" } ?? "unknown error"
                return JobHTTP.error(.notFound, "job \(id) failed (\(reason)); it has no results")
            default:
                return JobHTTP.error(
                    .notFound,
                    "results of job \(id) are not ready: it is \(record.status.rawValue) (\(record.processedCount) of \(record.totalCount) done)"
                )
            }
        }
    }
}

extension JobEngine.SubmissionError {
    /// The answer to an upload refused before its body was read: the connection closes after it
    /// (the rest of the body is not waited for).
    var earlyResponse: Response {
        var response = self.response
        response.headers[.connection] = "close"
        return response
    }

    /// The HTTP answer to a refused submission.
    var response: Response {
        switch self {
        case .tooManyConcurrentJobs(let limit):
            return JobHTTP.error(
                .rateLimitExceeded,
                "Too many unfinished jobs for this client (limit \(limit)). Wait for one to finish or cancel one.",
                retryAfterMs: 5000,
                details: ["reason": "concurrent_jobs", "maxConcurrentJobs": .number(Double(limit))]
            )
        case .serverBusy(let limit):
            return JobHTTP.error(
                .serviceUnavailable,
                "The server is running as many jobs as it takes (\(limit)). Try again when one has finished.",
                status: .serviceUnavailable,
                retryAfterMs: 5000,
                details: ["reason": "server_jobs", "maxServerJobs": .number(Double(limit))]
            )
        case .jobIDInUse(let id):
            return JobHTTP.error(.invalidRequest, "jobId '\(id)' is already used by another job; choose a new one")
        case .shuttingDown:
            return JobHTTP.error(
                .internalError,
                "the server is shutting down; try again shortly",
                status: .serviceUnavailable
            )
        }
    }
}
