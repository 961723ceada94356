import BooksTrackContract
import Foundation

/// The decisions of one SSE connection, without I/O: which events to write (deduplicated by
/// sequence number), when to send a heartbeat, when to time out, when to close.
struct SSESession {
    /// What to write next, and whether to close the stream afterwards.
    struct Step: Equatable {
        var text: String
        /// Job events contained in `text` (0 or 1).
        var jobEvents: Int
        var close: Bool
        static let nothing = Step(text: "", jobEvents: 0, close: false)
    }

    let jobID: String
    let heartbeat: Duration
    let timeout: Duration
    private(set) var lastSequence: Int
    private(set) var lastPayload: JobEventPayload?
    private(set) var closed = false
    private var lastWrite: ContinuousClock.Instant
    private var lastProgress: ContinuousClock.Instant

    init(jobID: String, afterSequence: Int, heartbeat: Duration, timeout: Duration, now: ContinuousClock.Instant) {
        self.jobID = jobID
        self.lastSequence = afterSequence
        self.heartbeat = heartbeat
        self.timeout = timeout
        self.lastWrite = now
        self.lastProgress = now
    }

    /// How often the driver should call `tick` (a quarter of the shorter interval, 5 ms…1 s).
    var tickInterval: Duration {
        let quarter = min(heartbeat, timeout) / 4
        return min(max(quarter, .milliseconds(5)), .seconds(1))
    }

    /// A job event (replayed or live). Already-seen sequence numbers are skipped.
    mutating func receive(_ event: JobEvent, now: ContinuousClock.Instant) -> Step {
        guard !closed, event.sequence > lastSequence else { return .nothing }
        lastSequence = event.sequence
        lastPayload = event.payload
        lastWrite = now
        lastProgress = now
        closed = event.status.isTerminal
        return Step(text: SSEFormat.event(event), jobEvents: 1, close: closed)
    }

    /// Time passes: a heartbeat after `heartbeat` of silence, a timeout after `timeout` without events.
    mutating func tick(now: ContinuousClock.Instant) -> Step {
        guard !closed else { return .nothing }
        if now - lastProgress >= timeout {
            closed = true
            let payload = StreamTimeoutPayload(
                message: "no progress for \(Self.describe(timeout)); reconnect or poll the status route",
                jobId: jobID,
                lastStatus: lastPayload?.status,
                lastProgress: lastPayload?.progress
            )
            return Step(text: SSEFormat.timeout(payload), jobEvents: 0, close: true)
        }
        if now - lastWrite >= heartbeat {
            lastWrite = now
            return Step(text: SSEFormat.heartbeat, jobEvents: 0, close: false)
        }
        return .nothing
    }

    /// The engine ended the live stream before a terminal event (server shutting down).
    mutating func liveEnded() -> Step {
        guard !closed else { return .nothing }
        closed = true
        let payload = StreamErrorPayload(
            error: StreamErrorPayload.streamError,
            message: "the server is shutting down; reconnect later",
            jobId: jobID
        )
        return Step(text: SSEFormat.error(payload), jobEvents: 0, close: true)
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = duration.jobSeconds
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60)) min" }
        if seconds >= 1 { return "\(Int(seconds)) s" }
        return "\(Int(seconds * 1000)) ms"
    }
}
