import BooksTrackContract
import Foundation

/// What a job's channels carry, read into the inputs of ``JobWatchStateMachine``: a status body, an
/// SSE event, a WebSocket message, a failed request. Pure: no I/O, no state.
package enum JobWatchDecoding {
    /// The `results` (or `books`) a v3 `completed` event's data carries.
    package static func v3Results(in data: String) -> JSONValue? {
        guard let value = try? JSONCoding.decoder().decode(JSONValue.self, from: Data(data.utf8)) else { return nil }
        return value["results"] ?? value["books"]
    }

    /// What a failed request means to the machine: a timeout, an HTTP answer, or a transport failure.
    package static func connectionFailure(_ error: BooksTrackError) -> JobConnectionFailure {
        if error.kind == .timeout { return .timedOut }
        if let status = error.httpStatus {
            return .http(status: status, code: error.code.rawValue, retryAfter: error.retryAfter)
        }
        return .transport(error.message)
    }

    /// The watcher's payload from a status body.
    package static func payload(_ s: BooksTrackContract.JobStatus) -> WatchedJobEvent {
        WatchedJobEvent(
            jobID: s.jobId,
            status: JobState(wireName: s.status.rawValue),
            progress: s.progress,
            processedCount: s.processedCount,
            totalCount: s.totalCount,
            errorCode: s.error?.code.rawValue,
            errorMessage: s.error?.message,
            retryable: s.error?.retryable
        )
    }

    /// The watcher's payload from an SSE event's data.
    package static func payload(eventName: String, data: String) -> WatchedJobEvent? {
        switch JobStreamEvent.decode(eventName: eventName, data: data) {
        case .state(let p):
            return WatchedJobEvent(
                jobID: p.jobId,
                status: JobState(wireName: p.status.rawValue),
                progress: p.progress,
                processedCount: p.processedCount,
                totalCount: p.totalCount,
                errorCode: p.error?.code.rawValue,
                errorMessage: p.error?.message,
                retryable: p.error?.retryable
            )
        case .timeout(let p):
            return WatchedJobEvent(
                jobID: p.jobId,
                status: p.lastStatus.flatMap { JobState(wireName: $0.rawValue) },
                progress: p.lastProgress,
                errorCode: p.error,
                errorMessage: p.message
            )
        case .error(let p):
            return WatchedJobEvent(jobID: p.jobId, errorCode: p.error, errorMessage: p.message)
        case .unknown:
            return nil
        }
    }

    /// Decodes one server message for the watcher.
    package static func socketMessage(_ text: String) -> JobSocketMessage {
        guard let message = try? JSONCoding.decoder().decode(WSMessage.self, from: Data(text.utf8)) else {
            let type = (try? JSONCoding.decoder().decode(JSONValue.self, from: Data(text.utf8)))?["type"]?.stringValue
            return JobSocketMessage(kind: .init(type: type ?? "unknown"))
        }
        let kind = JobSocketMessage.Kind(type: message.type.rawValue)
        switch message.payload {
        case .jobProgress(let p):
            return JobSocketMessage(
                kind: kind,
                payload: WatchedJobEvent(
                    jobID: message.jobId,
                    status: JobState(wireName: p.status),
                    progress: p.progress,
                    processedCount: p.processedCount
                )
            )
        case .jobStarted(let p):
            return JobSocketMessage(
                kind: kind,
                payload: WatchedJobEvent(
                    jobID: message.jobId,
                    status: .processing,
                    progress: 0,
                    totalCount: p.totalCount
                )
            )
        case .jobComplete(let p):
            return JobSocketMessage(
                kind: kind,
                payload: WatchedJobEvent(
                    jobID: message.jobId,
                    status: .completed,
                    progress: 1,
                    processedCount: p.summary.totalProcessed,
                    totalCount: p.summary.totalProcessed
                )
            )
        case .error(let p):
            return JobSocketMessage(
                kind: kind,
                payload: WatchedJobEvent(
                    jobID: message.jobId,
                    status: .failed,
                    errorCode: p.code.rawValue,
                    errorMessage: p.message,
                    retryable: p.retryable
                )
            )
        case .ping, .pong, .other:
            return JobSocketMessage(kind: kind)
        }
    }
}
