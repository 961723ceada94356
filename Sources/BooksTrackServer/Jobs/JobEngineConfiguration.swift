import BooksTrackContract
import Foundation

/// Every knob of the job engine (CSV import, batch enrichment, SSE and WebSocket progress).
///
/// The defaults are the documented contract values; tests shrink the intervals and TTLs.
package struct JobEngineConfiguration: Sendable {
    /// Directory holding `jobs.sqlite` (jobs, event logs, results). Created when missing.
    package var dataDirectory: URL
    /// Workers run on `JobExecutor`'s thread (`bts serve`), else on the global executor (tests,
    /// the embedded backend: with jobs on `JobExecutor` the in-process tests' request handlers
    /// were seen waiting seconds, which the server over sockets does not show).
    package var workersOnOwnThread = false
    /// Items (CSV rows or batch books) processed per second; 0 = as fast as possible.
    package var itemsPerSecond: Double
    /// At most this many `processing` events per job (progress is reported every
    /// `ceil(total / maxProgressEvents)` items and at the last item).
    package var maxProgressEvents: Int
    /// How long import results (and the job) are kept after the job ends (default: `JobTimings.importResultsTTL`).
    package var importResultsTTL: Duration
    /// How long batch results (and the job) are kept after the job ends (default: `JobTimings.batchResultsTTL`).
    package var batchResultsTTL: Duration
    /// Lifetime of a job's auth token (default: `JobTimings.tokenLifetime`).
    package var tokenLifetime: Duration
    /// A token may be refreshed only during this last part of its life (default: `JobTimings.tokenRefreshWindow`).
    package var tokenRefreshWindow: Duration
    /// Unfinished jobs one client (IP) may own at once; one more is refused with 429.
    package var maxConcurrentJobsPerClient: Int
    /// Unfinished jobs of all clients together; one more is refused with 503 (the server is busy).
    /// Each holds its upload (a CSV up to `JobLimits.maxCSVBytes`, photos up to 50 MB) until it ends,
    /// so without this cap many clients could take the server's memory (`bts serve --max-jobs`).
    package var maxConcurrentJobs: Int
    /// The default of `maxConcurrentJobs`.
    package static let defaultMaxConcurrentJobs = 16
    /// Largest accepted CSV file (default: the contract's `JobLimits.maxCSVBytes`).
    package var maxCSVBytes: Int
    /// Most data rows in a CSV (default: `JobLimits.maxCSVRows`).
    package var maxCSVRows: Int
    /// Books per batch (default: `JobLimits.maxBatchSize`).
    package var maxBatchSize: Int
    /// Largest accepted batch request body.
    package var maxBatchBodyBytes: Int
    /// SSE `: heartbeat` interval while nothing else was written (default: `JobTimings.heartbeat`).
    package var heartbeatInterval: Duration
    /// SSE `event: timeout` after this long without a job event (default: `JobTimings.streamTimeout`).
    package var streamTimeout: Duration
    /// SSE `retry:` value sent to clients, in milliseconds (default: `JobTimings.sseRetryMilliseconds`).
    package var sseRetryMilliseconds: Int
    /// WebSocket: how long to wait for the client's `{"type":"ready"}` before streaming anyway.
    package var webSocketReadyTimeout: Duration
    /// WebSocket: server `ping` message interval while idle.
    package var webSocketPingInterval: Duration
    /// Fault injection is ignored unless this is true.
    package var faultInjectionEnabled: Bool
    /// SSE connection drops (tests of client resumption); used only when `faultInjectionEnabled`.
    package var sseDropFault: SSEDropFault?

    package init(
        dataDirectory: URL,
        itemsPerSecond: Double = 0,
        maxProgressEvents: Int = 100,
        importResultsTTL: Duration = JobTimings.importResultsTTL,
        batchResultsTTL: Duration = JobTimings.batchResultsTTL,
        tokenLifetime: Duration = JobTimings.tokenLifetime,
        tokenRefreshWindow: Duration = JobTimings.tokenRefreshWindow,
        maxConcurrentJobsPerClient: Int = 3,
        maxConcurrentJobs: Int = JobEngineConfiguration.defaultMaxConcurrentJobs,
        maxCSVBytes: Int = JobLimits.maxCSVBytes,
        maxCSVRows: Int = JobLimits.maxCSVRows,
        maxBatchSize: Int = JobLimits.maxBatchSize,
        maxBatchBodyBytes: Int = 1024 * 1024,
        heartbeatInterval: Duration = JobTimings.heartbeat,
        streamTimeout: Duration = JobTimings.streamTimeout,
        sseRetryMilliseconds: Int = JobTimings.sseRetryMilliseconds,
        webSocketReadyTimeout: Duration = .seconds(10),
        webSocketPingInterval: Duration = JobTimings.heartbeat,
        faultInjectionEnabled: Bool = false,
        sseDropFault: SSEDropFault? = nil
    ) {
        self.dataDirectory = dataDirectory
        self.itemsPerSecond = max(0, itemsPerSecond)
        self.maxProgressEvents = max(1, maxProgressEvents)
        self.importResultsTTL = importResultsTTL
        self.batchResultsTTL = batchResultsTTL
        self.tokenLifetime = tokenLifetime
        self.tokenRefreshWindow = tokenRefreshWindow
        self.maxConcurrentJobsPerClient = max(1, maxConcurrentJobsPerClient)
        self.maxConcurrentJobs = max(1, maxConcurrentJobs)
        self.maxCSVBytes = max(1, maxCSVBytes)
        self.maxCSVRows = max(1, maxCSVRows)
        self.maxBatchSize = max(1, maxBatchSize)
        self.maxBatchBodyBytes = max(1024, maxBatchBodyBytes)
        self.heartbeatInterval = heartbeatInterval
        self.streamTimeout = streamTimeout
        self.sseRetryMilliseconds = max(0, sseRetryMilliseconds)
        self.webSocketReadyTimeout = webSocketReadyTimeout
        self.webSocketPingInterval = webSocketPingInterval
        self.faultInjectionEnabled = faultInjectionEnabled
        self.sseDropFault = sseDropFault
    }

    /// The SSE drop fault in force (nil unless fault injection is enabled).
    var activeSSEDropFault: SSEDropFault? { faultInjectionEnabled ? sseDropFault : nil }

    /// Results TTL for a pipeline.
    func resultsTTL(for pipeline: JobPipeline) -> Duration {
        switch pipeline {
        case .csvImport: return importResultsTTL
        case .batchEnrichment, .bookshelfScan: return batchResultsTTL
        }
    }
}

/// Server-side SSE connection drops, to test clients' `Last-Event-ID` resumption.
///
/// A connection is cut abruptly (no terminating chunk) right after it has written
/// `afterEvents` job events, and/or after any job event with probability `probability`
/// (seeded, so runs repeat). `maxDrops` bounds the drops over the server's life.
package struct SSEDropFault: Sendable, Hashable {
    package var afterEvents: Int?
    package var probability: Double
    package var seed: UInt64
    package var maxDrops: Int?

    package init(afterEvents: Int? = nil, probability: Double = 0, seed: UInt64 = 1, maxDrops: Int? = nil) {
        self.afterEvents = afterEvents.map { max(1, $0) }
        self.probability = min(1, max(0, probability))
        self.seed = seed
        self.maxDrops = maxDrops.map { max(0, $0) }
    }
}

extension Duration {
    /// The duration in (fractional) seconds.
    var jobSeconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
