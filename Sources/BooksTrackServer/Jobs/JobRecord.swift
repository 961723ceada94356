import BooksTrackContract
import Foundation

/// The kind of work the engine runs: the contract's open `Pipeline`, closed to the three this
/// server has. Its raw value (stored in `jobs.sqlite`, sent as `pipeline`) is the contract's.
public enum JobPipeline: Codable, Sendable, Hashable, CaseIterable, RawRepresentable {
    case csvImport
    case batchEnrichment
    case bookshelfScan

    /// The wire value.
    public var wire: Pipeline {
        switch self {
        case .csvImport: return .csvImport
        case .batchEnrichment: return .batchEnrichment
        case .bookshelfScan: return .bookshelfScan
        }
    }

    public var rawValue: String { wire.rawValue }

    public init?(rawValue: String) {
        guard let pipeline = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = pipeline
    }
}

extension JobError {
    /// What a job that was running when the server stopped becomes on the next start.
    static let serverRestarted = JobError(
        code: .unknownError, message: "server restarted while the job was running; submit it again", retryable: true)
}

/// Everything the engine knows about one job.
public struct JobRecord: Sendable, Hashable {
    public var id: String
    public var pipeline: JobPipeline
    public var status: JobState
    public var processedCount: Int
    public var totalCount: Int
    public var startTime: Date
    public var completedTime: Date?
    /// Client IP that created the job (concurrency limit, idempotent batch retries).
    public var owner: String
    /// Bearer token for cancel / WebSocket; never logged.
    public var authToken: String
    public var tokenExpiresAt: Date
    public var error: JobError?
    /// Successful / failed items (rows or books) so far.
    public var successCount: Int
    public var failureCount: Int
    /// When the job and its results are forgotten (set when the job ends).
    public var expiresAt: Date?

    /// 0…1 (1 once completed).
    public var progress: Double {
        if status == .completed { return 1 }
        guard totalCount > 0 else { return 0 }
        return min(1, Double(processedCount) / Double(totalCount))
    }

    /// `data` of the status route.
    public var wireStatus: JobStatus {
        JobStatus(
            jobId: id, status: status, progress: progress, processedCount: processedCount, totalCount: totalCount,
            pipeline: pipeline.wire, startTime: startTime.epochMilliseconds,
            completedTime: completedTime?.epochMilliseconds, error: error)
    }

    /// `data` of an SSE job event for the current state.
    var eventPayload: JobEventPayload {
        JobEventPayload(
            jobId: id, status: status, progress: progress, processedCount: processedCount, totalCount: totalCount,
            completedAt: completedTime.map(ISO8601.string(from:)), error: error)
    }
}

/// One entry of a job's append-only event log; its `id` (`<ms>-<seq>`) is the SSE event id.
public struct JobEvent: Sendable, Hashable {
    public var jobID: String
    /// 1, 2, 3… within the job.
    public var sequence: Int
    /// `<epoch ms>-<sequence>`.
    public var id: String
    /// The job status the event reports; also the SSE `event:` name.
    public var payload: JobEventPayload

    public var status: JobState { payload.status }

    /// The sequence number inside an event id such as `1790000000000-12`; nil when malformed.
    public static func sequence(fromEventID raw: String) -> Int? {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        guard let dash = trimmed.lastIndex(of: "-") else { return nil }
        guard let seq = Int(trimmed[trimmed.index(after: dash)...]), seq >= 0,
            Int64(trimmed[..<dash]) != nil
        else { return nil }
        return seq
    }
}
