import BooksTrackClient
import BooksTrackContract
import Foundation

/// Drives a `JobWatchStateMachine` the way the transport will, but from in-memory wire text: SSE text
/// goes through a real `SSEParser` (in small chunks) and JSON `data` is mapped to `WatchedJobEvent`.
struct WatchHarness {
    var machine: JobWatchStateMachine
    var progress: [JobProgressUpdate] = []
    var actions: [JobWatchAction] = []
    private var parser = SSEParser()

    init(jobID: String = "job-1", configuration: JobWatchConfiguration = .sse) {
        machine = JobWatchStateMachine(jobID: jobID, configuration: configuration)
    }

    @discardableResult
    mutating func apply(_ step: JobWatchStep) -> JobWatchAction {
        progress += step.progress
        actions.append(step.action)
        return step.action
    }

    @discardableResult mutating func start() -> JobWatchAction { apply(machine.start()) }

    /// Opens a stream connection (a fresh parser, as for a new HTTP response).
    @discardableResult
    mutating func open() -> JobWatchAction {
        parser = SSEParser()
        return apply(machine.streamOpened())
    }

    /// Feeds wire text in 7-byte chunks; returns the first action that is not `.none`, else `.none`.
    @discardableResult
    mutating func receive(_ text: String) -> JobWatchAction {
        let bytes = Array(text.utf8)
        var result: JobWatchAction = .none
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 7)
            for item in parser.feedItems(bytes[start..<end]) {
                var payload: WatchedJobEvent?
                if case .event(let event) = item { payload = Self.payload(event.data) }
                let action = apply(machine.streamItem(item, payload: payload))
                if result == .none, action != .none { result = action }
            }
            start = end
        }
        return result
    }

    @discardableResult
    mutating func cut() -> JobWatchAction {
        parser.finish()
        return apply(machine.connectionFailed(.transport("connection reset"), parserLastEventID: parser.lastEventID))
    }

    @discardableResult
    mutating func serverClosed() -> JobWatchAction {
        parser.finish()
        return apply(machine.connectionClosed(parserLastEventID: parser.lastEventID))
    }

    /// Maps stand-in/production JSON into the watcher's payload (what the transport helper will do
    /// with the contract types).
    static func payload(_ json: String) -> WatchedJobEvent? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            return nil
        }
        var payload = WatchedJobEvent()
        payload.jobID = object["jobId"] as? String
        payload.status = ((object["status"] ?? object["lastStatus"]) as? String).flatMap(JobState.init(wireName:))
        payload.progress = ((object["progress"] ?? object["lastProgress"]) as? NSNumber)?.doubleValue
        payload.processedCount = (object["processedCount"] as? NSNumber)?.intValue
        payload.totalCount = (object["totalCount"] as? NSNumber)?.intValue
        if let error = object["error"] as? String {
            payload.errorCode = error
            payload.errorMessage = object["message"] as? String
        } else if let error = object["error"] as? [String: Any] {
            payload.errorCode = error["code"] as? String
            payload.errorMessage = error["message"] as? String
            payload.retryable = error["retryable"] as? Bool
        }
        return payload
    }
}

/// A job's event log on a pretend server, rendered as the stand-in renders SSE.
struct FakeEventLog {
    struct Entry {
        var id: String
        var type: String
        var json: String
    }

    var entries: [Entry]

    /// A CSV import of `total` rows reporting every `step` rows, then completing.
    static func importJob(total: Int = 100, step: Int = 10) -> FakeEventLog {
        var entries = [
            Entry(
                id: "1700000000000-0",
                type: "initialized",
                json:
                    #"{"jobId":"job-1","status":"initialized","progress":0,"processedCount":0,"totalCount":\#(total)}"#
            )
        ]
        var sequence = 1
        for processed in stride(from: step, to: total, by: step) {
            entries.append(
                Entry(
                    id: "1700000000000-\(sequence)",
                    type: "processing",
                    json:
                        #"{"jobId":"job-1","status":"processing","progress":\#(Double(processed) / Double(total)),"processedCount":\#(processed),"totalCount":\#(total)}"#
                )
            )
            sequence += 1
        }
        entries.append(
            Entry(
                id: "1700000000000-\(sequence)",
                type: "completed",
                json:
                    #"{"jobId":"job-1","status":"completed","progress":1,"processedCount":\#(total),"totalCount":\#(total),"completedAt":"2026-11-22T02:00:00Z"}"#
            )
        )
        return FakeEventLog(entries: entries)
    }

    static func render(_ entry: Entry) -> String { "id: \(entry.id)\nevent: \(entry.type)\ndata: \(entry.json)\n\n" }

    /// The events after `lastEventID` (all when nil); `overlap` re-sends that many already-seen ones.
    func replay(after lastEventID: String?, overlap: Int = 0) -> [Entry] {
        guard let lastEventID, let index = entries.firstIndex(where: { $0.id == lastEventID }) else { return entries }
        return Array(entries[max(0, index + 1 - overlap)...])
    }

    var ids: [String] { entries.map(\.id) }
}
