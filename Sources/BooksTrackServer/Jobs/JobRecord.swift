import BooksTrackContract
import Foundation

/// The kind of work the engine runs: the contract's open `Pipeline`, closed to the three this
/// server has. Its raw value (stored in `jobs.sqlite`, sent as `pipeline`) is the contract's.
package enum JobPipeline: Codable, Sendable, Hashable, CaseIterable, RawRepresentable {
    case csvImport
    case batchEnrichment
    case bookshelfScan

    /// The wire value.
    package var wire: Pipeline {
        switch self {
        case .csvImport: return .csvImport
        case .batchEnrichment: return .batchEnrichment
        case .bookshelfScan: return .bookshelfScan
        }
    }

    package var rawValue: String { wire.rawValue }

    package init?(rawValue: String) {
        guard let pipeline = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = pipeline
    }
}

extension JobError {
    /// What a job that was running when the server stopped becomes on the next start.
    static let serverRestarted = JobError(
        code: .unknownError,
        message: "server restarted while the job was running; submit it again",
        retryable: true
    )
}

/// Everything the engine knows about one job.
package struct JobRecord: Sendable, Hashable {
    package var id: String
    package var pipeline: JobPipeline
    package var status: JobState
    package var processedCount: Int
    package var totalCount: Int
    package var startTime: Date
    package var completedTime: Date?
    /// Client IP that created the job (concurrency limit, idempotent batch retries).
    package var owner: String
    /// Bearer token for cancel / WebSocket; never logged.
    package var authToken: String
    package var tokenExpiresAt: Date
    package var error: JobError?
    /// Successful / failed items (rows or books) so far.
    package var successCount: Int
    package var failureCount: Int
    /// When the job and its results are forgotten (set when the job ends).
    package var expiresAt: Date?

    /// 0…1 (1 once completed).
    package var progress: Double {
        if status == .completed { return 1 }
        guard totalCount > 0 else { return 0 }
        return min(1, Double(processedCount) / Double(totalCount))
    }

    /// `data` of the status route.
    package var wireStatus: JobStatus {
        JobStatus(
            jobId: id,
            status: status,
            progress: progress,
            processedCount: processedCount,
            totalCount: totalCount,
            pipeline: pipeline.wire,
            startTime: startTime.epochMilliseconds,
            completedTime: completedTime?.epochMilliseconds,
            error: error
        )
    }

    /// `data` of an SSE job event for the current state.
    var eventPayload: JobEventPayload {
        JobEventPayload(
            jobId: id,
            status: status,
            progress: progress,
            processedCount: processedCount,
            totalCount: totalCount,
            completedAt: completedTime.map(ISO8601.string(from:)),
            error: error
        )
    }
}

/// One entry of a job's append-only event log; its `id` (`<ms>-<seq>`) is the SSE event id.
package struct JobEvent: Sendable, Hashable {
    package var jobID: String
    /// 1, 2, 3… within the job.
    package var sequence: Int
    /// `<epoch ms>-<sequence>`.
    package var id: String
    /// The job status the event reports; also the SSE `event:` name.
    package var payload: JobEventPayload

    package var status: JobState { payload.status }

    /// The sequence number inside an event id such as `1790000000000-12`; nil when malformed.
    package static func sequence(fromEventID raw: String) -> Int? {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        guard let dash = trimmed.lastIndex(of: "-") else { return nil }
        guard let seq = Int(trimmed[trimmed.index(after: dash)...]), seq >= 0,
            Int64(trimmed[..<dash]) != nil
        else { return nil }
        return seq
    }
}
