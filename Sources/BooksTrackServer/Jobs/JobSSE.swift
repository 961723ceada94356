import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle

/// Streams a job's Server-Sent Events (docs/contract.md §5): replay after `Last-Event-ID`, then live
/// events, heartbeats and timeout, closing after the terminal event. Stops when the client goes away
/// (the next write fails) and unsubscribes from the engine.
enum JobSSE {
    static func response(engine: JobEngine, jobID: String, lastEventID: String?) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/event-stream",
            .cacheControl: "no-cache",
            .connection: "keep-alive",
        ]
        if let name = JobHeader.accelBuffering { headers[name] = "no" }
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                try await stream(engine: engine, jobID: jobID, lastEventID: lastEventID, writer: &writer)
            }
        )
    }

    private enum Input: Sendable {
        case event(JobEvent)
        case liveEnded
        case tick
    }

    static func stream(
        engine: JobEngine,
        jobID: String,
        lastEventID: String?,
        writer: inout any ResponseBodyWriter
    ) async throws {
        let config = engine.configuration
        let afterSequence = lastEventID.flatMap(JobEvent.sequence(fromEventID:)) ?? 0
        try await writer.write(
            ByteBuffer(
                string: SSEFormat.opening(lastEventID: lastEventID, retryMilliseconds: config.sseRetryMilliseconds)
            )
        )
        guard let subscription = await engine.subscribe(to: jobID, afterSequence: afterSequence) else {
            let payload = StreamErrorPayload(
                error: StreamErrorPayload.jobNotFound,
                message: "job \(SSEFormat.sanitize(jobID)) not found",
                jobId: SSEFormat.sanitize(jobID)
            )
            try await writer.write(ByteBuffer(string: SSEFormat.error(payload)))
            try await writer.finish(nil)
            return
        }
        var session = SSESession(
            jobID: jobID,
            afterSequence: afterSequence,
            heartbeat: config.heartbeatInterval,
            timeout: config.streamTimeout,
            now: .now
        )
        let dropPlan = engine.sseDropPlan
        var eventsWritten = 0

        let (inputs, input) = AsyncStream<Input>.makeStream(bufferingPolicy: .unbounded)
        let tick = session.tickInterval
        // A graceful server shutdown ends the stream (`event: error` stream_error) instead of waiting
        // for it: the server only stops once its in-flight requests are done.
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
                var steps = subscription.replay.makeIterator()
                var pending = inputs.makeAsyncIterator()
                var closed = false
                while !closed {
                    let step: SSESession.Step
                    if let replayed = steps.next() {
                        step = session.receive(replayed, now: .now)
                    } else {
                        guard let next = await pending.next() else { break }
                        switch next {
                        case .event(let event): step = session.receive(event, now: .now)
                        case .tick: step = session.tick(now: .now)
                        case .liveEnded: step = session.liveEnded()
                        }
                    }
                    if !step.text.isEmpty { try await writer.write(ByteBuffer(string: step.text)) }
                    closed = step.close
                    if step.jobEvents > 0, !closed {
                        eventsWritten += step.jobEvents
                        if dropPlan?.shouldDrop(afterEventsWritten: eventsWritten) == true {
                            engine.logger.debug(
                                "SSE connection dropped by fault injection",
                                metadata: ["job": "\(jobID)"]
                            )
                            throw SSEDroppedByFault()
                        }
                    }
                }
            }
        } onGracefulShutdown: {
            input.yield(.liveEnded)
        }
        input.finish()
        try await writer.finish(nil)
    }
}
