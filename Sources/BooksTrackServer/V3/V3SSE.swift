import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// `GET /v3/jobs/{pipeline}/{id}/stream` (bendv3 `src/api-v3/jobs/stream.ts`, read at 02b5112; the route
/// of `src/api-v3/index.ts` @ e40ae5d):
///
/// - `Accept: text/event-stream` required (else 400 `INVALID_ACCEPT_HEADER` with a `hint`);
/// - `Authorization: Bearer <64 lowercase hex job token>` (malformed → 401 `INVALID_TOKEN` "Valid Bearer
///   token required…", wrong → 401 `INVALID_TOKEN` "Invalid auth token…", expired → 401 `TOKEN_EXPIRED`);
///   these refusals are the legacy `{success: false, error, metadata}` body, not problems;
/// - then `: connection established`, `retry: 5000`; an unknown job → `event: error` `JOB_NOT_FOUND`;
///   always an initial `event: progress` (id `<ms>-initial`), even for a finished job; live `progress`
///   events (id `<ms>-progress`), `event: ping` `{timestamp}` every heartbeat interval, and the final
///   `completed` (`results`: the books) or `failed` (nested `error`, upper-case code; a canceled job is
///   `CANCELED`), id `<ms>-final`; `event: timeout` (`STREAM_TIMEOUT`) after the stream timeout without progress.
///
/// Heartbeat and timeout are the engine's `heartbeatInterval` / `streamTimeout` (30 s / 5 min by default,
/// as production; tests shorten them).
extension V3Handlers {
    func stream(_ request: Request, _ path: V3JobPath) async throws -> Response {
        guard V3Pipeline(rawValue: path.pipeline) != nil else { return endpointNotFound(request) }
        guard V3JobPath.isUUID(path.id) else {
            throw V3Problem.validation(field: "jobId", "Invalid uuid", code: "invalid_string")
        }
        try services.require(.sseProgress)
        let accept = request.headers[values: .accept].joined(separator: ",")
        guard accept.contains("text/event-stream") else {
            return refusal(
                400,
                "INVALID_ACCEPT_HEADER",
                "This endpoint requires Accept: text/event-stream header",
                hint: "Use EventSource API or set Accept header to text/event-stream"
            )
        }
        let header = request.headers[.authorization] ?? ""
        let token = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : header
        guard token.utf8.count == 64, token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else {
            return refusal(401, "INVALID_TOKEN", "Valid Bearer token required. Obtain from job initiation response.")
        }
        let engine = try requireEngine().engine()
        switch await engine.checkToken(token, for: path.id) {
        case .valid:
            break
        case .invalid:
            return refusal(401, "INVALID_TOKEN", "Invalid auth token. Token does not match this job.")
        case .expired:
            return refusal(401, "TOKEN_EXPIRED", "Auth token expired. Tokens are valid for 1 hour.")
        case .notFound where dialect == .production:
            // Production checks the token in a per-job object that knows no token for an unknown job.
            return refusal(401, "INVALID_TOKEN", "Invalid auth token. Token does not match this job.")
        case .notFound:
            break
        }
        let lastEventID = JobHeader.lastEventID.flatMap { request.headers[$0] }
        let handlers = self
        return Response(
            status: .ok,
            headers: Self.streamHeaders,
            body: ResponseBody { writer in
                try await V3SSE(handlers: handlers, engine: engine, jobID: path.id)
                    .run(lastEventID: lastEventID, writer: &writer)
            }
        )
    }

    /// stream.ts's response headers.
    static var streamHeaders: HTTPFields {
        var headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-cache, no-store, must-revalidate",
            .connection: "keep-alive", .accessControlAllowOrigin: "*",
        ]
        if let name = JobHeader.accelBuffering { headers[name] = "no" }
        return headers
    }

    /// The stream route's own refusal body: `{success: false, error: {code, message, hint?}, metadata: {timestamp}}`.
    private func refusal(_ status: Int, _ code: String, _ message: String, hint: String? = nil) -> Response {
        var error: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
        if let hint { error["hint"] = .string(hint) }
        let body: JSONValue = [
            "success": false, "error": .object(error),
            "metadata": ["timestamp": .string(ISO8601.string(from: services.now()))],
        ]
        return V3Wire.json(body, status: .canonical(status))
    }
}

/// One v3 SSE connection.
struct V3SSE: Sendable {
    let handlers: V3Handlers
    let engine: JobEngine
    let jobID: String

    private enum Input: Sendable {
        case event(JobEvent)
        case liveEnded
        case tick
    }

    private var now: Date { engine.clock.now() }
    private var timestamp: JSONValue { .string(ISO8601.string(from: now)) }
    private var ms: Int64 { now.epochMilliseconds }

    /// The epoch milliseconds at the head of a `Last-Event-ID` such as `1795639106748-progress`
    /// (`parseLastEventId`: JavaScript's `parseInt`), or nil.
    static func resumeMilliseconds(_ lastEventID: String?) -> Int64? {
        guard let lastEventID else { return nil }
        let trimmed = lastEventID.drop { $0 == " " }
        let sign = trimmed.first == "-" ? "-" : ""
        let digits = trimmed.dropFirst(sign.count).prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int64(sign + digits)
    }

    /// A resumed stream (an event id from the last 10 s) skips the initial progress event.
    func run(lastEventID: String?, writer: inout any ResponseBodyWriter) async throws {
        let resume = Self.resumeMilliseconds(lastEventID)
        let opening =
            resume == nil
            ? ": connection established\n" : ": reconnected from event \(SSEFormat.sanitize(lastEventID ?? ""))\n"
        try await writer.write(ByteBuffer(string: opening + "retry: 5000\n\n"))
        guard let subscription = await engine.subscribe(to: jobID, afterSequence: .max) else {
            let error: JSONValue = ["code": "JOB_NOT_FOUND", "message": "Job not found or not initialized"]
            try await write(event: "error", ["jobId": .string(jobID), "error": error, "timestamp": timestamp], &writer)
            try await writer.finish(nil)
            return
        }
        let record = subscription.record
        let kind = V3Pipeline(record.pipeline)
        if resume.map({ ms - $0 >= 10_000 }) ?? true {
            try await write(
                event: "progress",
                id: "\(ms)-initial",
                progress(
                    status: record.status,
                    progress: record.progress,
                    processed: record.processedCount,
                    total: record.totalCount
                ),
                &writer
            )
        }
        if record.status.isTerminal {
            try await writeFinal(status: record.status, error: record.error, kind, &writer)
            try await writer.finish(nil)
            return
        }
        let config = engine.configuration
        let tick = min(max(min(config.heartbeatInterval, config.streamTimeout) / 4, .milliseconds(5)), .seconds(1))
        let (inputs, input) = AsyncStream<Input>.makeStream(bufferingPolicy: .unbounded)
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                defer { group.cancelAll() }
                subscription.feed(
                    input,
                    into: &group,
                    tick: tick,
                    event: { .event($0) },
                    ended: .liveEnded,
                    ticked: .tick
                )
                var lastWrite = ContinuousClock.now
                var lastProgress = ContinuousClock.now
                loop: for await next in inputs {
                    switch next {
                    case .event(let event):
                        lastWrite = .now
                        lastProgress = .now
                        let payload = event.payload
                        if payload.status.isTerminal {
                            try await writeFinal(status: payload.status, error: payload.error, kind, &writer)
                            break loop
                        }
                        try await write(
                            event: "progress",
                            id: "\(ms)-progress",
                            progress(
                                status: payload.status,
                                progress: payload.progress,
                                processed: payload.processedCount,
                                total: payload.totalCount
                            ),
                            &writer
                        )
                    case .tick:
                        // stream.ts checks the heartbeat before the timeout in each round.
                        if ContinuousClock.now - lastWrite >= config.heartbeatInterval {
                            lastWrite = .now
                            try await write(event: "ping", ["timestamp": timestamp], &writer)
                        }
                        if ContinuousClock.now - lastProgress >= config.streamTimeout {
                            let error: JSONValue = [
                                "code": "STREAM_TIMEOUT",
                                "message": .string(
                                    "No progress for \(SSESession.describe(config.streamTimeout)). "
                                        + "Use polling endpoint to check status."
                                ),
                                "retryable": true,
                            ]
                            try await write(
                                event: "timeout",
                                ["jobId": .string(jobID), "error": error, "timestamp": timestamp],
                                &writer
                            )
                            break loop
                        }
                    case .liveEnded:
                        let error: JSONValue = [
                            "code": "STREAM_ERROR", "message": "An error occurred while streaming progress",
                            "retryable": true,
                        ]
                        try await write(
                            event: "error",
                            ["jobId": .string(jobID), "error": error, "timestamp": timestamp],
                            &writer
                        )
                        break loop
                    }
                }
            }
        } onGracefulShutdown: {
            input.yield(.liveEnded)
        }
        input.finish()
        try await writer.finish(nil)
    }

    private func progress(status: JobState, progress: Double, processed: Int, total: Int) -> JSONValue {
        [
            "jobId": .string(jobID), "status": .string(V3Handlers.wireStatus(status)), "progress": .number(progress),
            "processedCount": .number(Double(processed)), "totalCount": .number(Double(total)), "timestamp": timestamp,
        ]
    }

    /// `completed` with the books, or `failed` with the nested error.
    private func writeFinal(
        status: JobState,
        error: JobError?,
        _ kind: V3Pipeline,
        _ writer: inout any ResponseBodyWriter
    ) async throws {
        if status == .completed {
            let books = await handlers.books(of: engine, id: jobID, pipeline: kind)
            let data: JSONValue = [
                "jobId": .string(jobID), "status": "completed", "results": .array(books), "timestamp": timestamp,
            ]
            try await write(event: "completed", id: "\(ms)-final", data, &writer)
            return
        }
        let nested =
            V3Handlers.wireError(status: status, error: error)
            ?? ["code": "UNKNOWN_ERROR", "message": "Job failed", "retryable": false]
        try await write(
            event: "failed",
            id: "\(ms)-final",
            ["jobId": .string(jobID), "error": nested, "timestamp": timestamp],
            &writer
        )
    }

    private func write(
        event: String,
        id: String? = nil,
        _ data: JSONValue,
        _ writer: inout any ResponseBodyWriter
    ) async throws {
        let idLine = id.map { "id: \($0)\n" } ?? ""
        try await writer.write(ByteBuffer(string: "\(idLine)event: \(event)\ndata: \(SSEFormat.json(data))\n\n"))
    }
}
