import Foundation

/// `data` of an SSE job event (`initialized|processing|completed|failed|canceled`).
package struct JobEventPayload: Codable, Sendable, Hashable {
    package var jobId: String
    package var status: JobState
    /// 0…1 (production's 100 on completion is normalized to 1.0 when decoding).
    package var progress: Double
    package var processedCount: Int
    package var totalCount: Int
    /// ISO-8601, on `completed`.
    package var completedAt: String?
    /// On `failed`.
    package var error: JobError?
    /// v3's `completed` event carries the job's results (books) itself (bendv3 jobs/stream.ts
    /// `sendFinalEvent`); older servers' results are fetched from the results route.
    package var results: JSONValue?

    package init(
        jobId: String,
        status: JobState,
        progress: Double,
        processedCount: Int,
        totalCount: Int,
        completedAt: String? = nil,
        error: JobError? = nil
    ) {
        self.jobId = jobId
        self.status = status
        self.progress = progress
        self.processedCount = processedCount
        self.totalCount = totalCount
        self.completedAt = completedAt
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case jobId, status, progress, processedCount, totalCount, completedAt, error, results, books
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        jobId = try c.decodeLenientString(forKey: .jobId) ?? ""
        status = try c.decode(JobState.self, forKey: .status)
        progress = normalizedProgress(try c.decodeLenientDouble(forKey: .progress) ?? (status == .completed ? 1 : 0))
        processedCount = try c.decodeLenientInt(forKey: .processedCount) ?? 0
        totalCount = try c.decodeLenientInt(forKey: .totalCount) ?? 0
        completedAt = try c.decodeLenientString(forKey: .completedAt)
        error = try c.decodeIfPresent(JobError.self, forKey: .error)
        results =
            try c.decodeIfPresent(JSONValue.self, forKey: .results) ?? c.decodeIfPresent(JSONValue.self, forKey: .books)
        // A v3 cancel ends the stream with `failed` and `CANCELED`.
        if status == .failed, error?.code == .canceled { status = .canceled }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(jobId, forKey: .jobId)
        try c.encode(status, forKey: .status)
        try c.encode(progress, forKey: .progress)
        try c.encode(processedCount, forKey: .processedCount)
        try c.encode(totalCount, forKey: .totalCount)
        try c.encodeIfPresent(completedAt, forKey: .completedAt)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(results, forKey: .results)
    }
}

/// `data` of the SSE `timeout` event (no progress for 5 minutes; the stream then closes).
package struct StreamTimeoutPayload: Codable, Sendable, Hashable {
    /// `stream_timeout`.
    package var error: String
    package var message: String
    package var jobId: String
    package var lastStatus: JobState?
    package var lastProgress: Double?

    package init(
        error: String = "stream_timeout",
        message: String,
        jobId: String,
        lastStatus: JobState? = nil,
        lastProgress: Double? = nil
    ) {
        self.error = error
        self.message = message
        self.jobId = jobId
        self.lastStatus = lastStatus
        self.lastProgress = lastProgress
    }

    enum CodingKeys: String, CodingKey { case error, message, jobId, lastStatus, lastProgress }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // v3 nests it: `error: {code: "STREAM_TIMEOUT", message, retryable}` (jobs/stream.ts).
        let nested = try? c.decodeIfPresent(JobError.self, forKey: .error)
        error =
            (try? c.decodeIfPresent(String.self, forKey: .error)) ?? nil ?? nested?.code.rawValue ?? "stream_timeout"
        message = try c.decodeIfPresent(String.self, forKey: .message) ?? nested?.message ?? "stream timed out"
        jobId = try c.decodeLenientString(forKey: .jobId) ?? ""
        lastStatus = (try? c.decodeIfPresent(JobState.self, forKey: .lastStatus)) ?? nil
        lastProgress = try c.decodeLenientDouble(forKey: .lastProgress).map(normalizedProgress)
    }
}

/// `data` of the SSE `error` event (`job_not_found` or `stream_error`; the stream then closes).
package struct StreamErrorPayload: Codable, Sendable, Hashable {
    package var error: String
    package var message: String
    package var jobId: String?

    package init(error: String, message: String, jobId: String? = nil) {
        self.error = error
        self.message = message
        self.jobId = jobId
    }

    package static let jobNotFound = "job_not_found"
    package static let streamError = "stream_error"

    enum CodingKeys: String, CodingKey { case error, message, jobId }

    /// Lenient: v3 nests the failure, `error: {code: "JOB_NOT_FOUND", message}` (jobs/stream.ts),
    /// read here as the older flat `error`/`message` (its code lower-cased, as the older servers sent it).
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        jobId = try c.decodeLenientString(forKey: .jobId)
        if let flat = try? c.decode(String.self, forKey: .error) {
            error = flat
            message = try c.decodeIfPresent(String.self, forKey: .message) ?? flat
        } else {
            let nested = try c.decode(JobError.self, forKey: .error)
            error = nested.code.rawValue.lowercased()
            message = try c.decodeIfPresent(String.self, forKey: .message) ?? nested.message
        }
    }
}

/// A typed SSE event of a job stream, from its event name and data.
package enum JobStreamEvent: Sendable, Hashable {
    /// A job state event (`progress` maps to `processing`).
    case state(JobEventPayload)
    case timeout(StreamTimeoutPayload)
    case error(StreamErrorPayload)
    /// An event this build does not know, or data that did not decode (kept for traces).
    case unknown(name: String, data: String, failure: DecodingFailure?)

    /// Decodes one event. Never throws: undecodable data becomes `.unknown` with the cause.
    package static func decode(eventName: String?, data: String) -> JobStreamEvent {
        let name = eventName ?? "message"
        let bytes = Data(data.utf8)
        let decoder = JSONCoding.decoder()
        do {
            switch name {
            case "timeout":
                return .timeout(try decoder.decode(StreamTimeoutPayload.self, from: bytes))
            case "error":
                return .error(try decoder.decode(StreamErrorPayload.self, from: bytes))
            default:
                guard JobState(lenient: name) != nil || name == "message" else {
                    return .unknown(name: name, data: data, failure: nil)
                }
                // Production may omit `status`: the event name stands in for it.
                var value = try decoder.decode(JSONValue.self, from: bytes)
                if case .object(var obj) = value, obj["status"] == nil || obj["status"]?.isNull == true,
                    let state = JobState(lenient: name)
                {
                    obj["status"] = .string(state.rawValue)
                    value = .object(obj)
                }
                let normalized = try JSONCoding.encoder().encode(value)
                return .state(try decoder.decode(JobEventPayload.self, from: normalized))
            }
        } catch {
            return .unknown(name: name, data: data, failure: DecodingFailure(error))
        }
    }
}
