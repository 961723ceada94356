import BooksTrackContract
import Foundation

/// The decisions of one `/ws/progress` connection (docs/contract.md §6), without I/O.
///
/// Flow: the client sends `{"type":"ready"}` → `ready_ack`; job events are held until then (or until
/// the ready timeout) and then sent as `job_started` (once), `job_progress`, and finally
/// `job_complete` (summary only) or `error` (failed / canceled), after which the socket closes 1000.
/// A client `ping` gets a `pong`; the server sends `ping` after `pingInterval` of silence.
struct WSProgressSession {
    enum Output: Equatable {
        case send(WSMessage)
        case close(code: UInt16, reason: String)
    }

    /// What `job_complete` needs beyond the event (from the final job record).
    struct Summary: Equatable {
        var successCount: Int
        var failureCount: Int
        var durationMs: Int
        var expiresAt: String
    }

    let jobID: String
    let pipeline: Pipeline
    let pingInterval: Duration
    private(set) var ready = false
    private(set) var started = false
    private(set) var closed = false
    /// A terminal event has arrived (it may still be held until `ready`).
    private(set) var sawTerminal = false
    private var held: [(JobEvent, Summary?)] = []
    private var readyDeadline: ContinuousClock.Instant
    private var lastSend: ContinuousClock.Instant

    init(
        jobID: String,
        pipeline: Pipeline,
        readyTimeout: Duration,
        pingInterval: Duration,
        now: ContinuousClock.Instant
    ) {
        self.jobID = jobID
        self.pipeline = pipeline
        self.pingInterval = pingInterval
        self.readyDeadline = now + readyTimeout
        self.lastSend = now
    }

    /// A text frame from the client.
    mutating func clientText(_ text: String, timestamp: Int64, now: ContinuousClock.Instant) -> [Output] {
        guard !closed else { return [] }
        let type = (try? JSONCoding.decoder().decode(WSClientMessage.self, from: Data(text.utf8)))?.type
        switch type {
        case .some(.ready):
            guard !ready else { return [] }
            ready = true
            var out: [Output] = [.send(message(.readyAck, .other(["status": "ready"]), timestamp))]
            out += flush(timestamp: timestamp)
            lastSend = now
            return out
        case .some(.ping):
            lastSend = now
            return [.send(message(.pong, .pong, timestamp))]
        default:
            return []
        }
    }

    /// A job event; `summary` is given with terminal events.
    mutating func event(
        _ event: JobEvent,
        summary: Summary?,
        timestamp: Int64,
        now: ContinuousClock.Instant
    )
        -> [Output]
    {
        guard !closed else { return [] }
        if event.status.isTerminal { sawTerminal = true }
        held.append((event, summary))
        guard ready else { return [] }
        lastSend = now
        return flush(timestamp: timestamp)
    }

    /// Time passes: the ready timeout (stream without `ready_ack`) and idle pings.
    mutating func tick(timestamp: Int64, now: ContinuousClock.Instant) -> [Output] {
        guard !closed else { return [] }
        if !ready, now >= readyDeadline {
            ready = true
            lastSend = now
            return flush(timestamp: timestamp)
        }
        if ready, now - lastSend >= pingInterval {
            lastSend = now
            return [.send(message(.ping, .ping, timestamp))]
        }
        return []
    }

    /// The engine ended the live stream: normal after a terminal event (which may still be held
    /// until `ready`), otherwise the engine is shutting down.
    mutating func liveEnded() -> [Output] {
        guard !sawTerminal else { return [] }
        return shutdown()
    }

    /// The server is going away: close 1001 (the client retries in 5 s).
    mutating func shutdown() -> [Output] {
        guard !closed else { return [] }
        closed = true
        return [.close(code: 1001, reason: "server going away")]
    }

    private mutating func flush(timestamp: Int64) -> [Output] {
        var out: [Output] = []
        let pending = held
        held = []
        for (event, summary) in pending where !closed {
            out += translate(event, summary: summary, timestamp: timestamp)
        }
        return out
    }

    private mutating func translate(_ event: JobEvent, summary: Summary?, timestamp: Int64) -> [Output] {
        let p = event.payload
        var out: [Output] = []
        if !started, !p.status.isTerminal {
            started = true
            out.append(
                .send(
                    message(
                        .jobStarted,
                        .jobStarted(JobStartedPayload(totalCount: p.totalCount, message: "job \(p.status.rawValue)")),
                        timestamp
                    )
                )
            )
        }
        switch p.status {
        case .initialized:
            break
        case .processing:
            let progress = JobProgressPayload(
                progress: p.progress,
                status: "Processed \(p.processedCount)/\(p.totalCount)",
                processedCount: p.processedCount
            )
            out.append(.send(message(.jobProgress, .jobProgress(progress), timestamp)))
        case .completed:
            let s = summary ?? Summary(successCount: 0, failureCount: 0, durationMs: 0, expiresAt: "")
            let complete = JobCompletePayload(
                pipeline: pipeline,
                summary: .init(
                    totalProcessed: p.processedCount,
                    successCount: s.successCount,
                    failureCount: s.failureCount,
                    duration: s.durationMs,
                    resourceId: jobID
                ),
                expiresAt: s.expiresAt
            )
            out.append(.send(message(.jobComplete, .jobComplete(complete), timestamp)))
            closed = true
            out.append(.close(code: 1000, reason: "job completed"))
        case .failed, .canceled:
            let error =
                p.status == .canceled
                ? WSErrorPayload(code: "JOB_CANCELED", message: "the job was canceled", retryable: false)
                : WSErrorPayload(
                    code: p.error?.code ?? .unknownError,
                    message: p.error?.message ?? "the job failed",
                    retryable: p.error?.retryable ?? false
                )
            out.append(.send(message(.error, .error(error), timestamp)))
            closed = true
            out.append(.close(code: 1000, reason: "job \(p.status.rawValue)"))
        }
        return out
    }

    private func message(_ type: WSMessageType, _ payload: WSPayload, _ timestamp: Int64) -> WSMessage {
        WSMessage(type: type, jobId: jobID, pipeline: pipeline, timestamp: timestamp, payload: payload)
    }
}
