import BooksTrackContract

extension JobState {
    /// Maps a name the job watcher meets: the SSE event type or a `status` field. Accepts
    /// production's `progress` (for processing), `complete`, `cancelled`, and the WebSocket
    /// `job_started`/`job_progress`/`job_complete`; an SSE `error` event is a stream error, not a
    /// job failure, so unlike ``init(lenient:)`` it names no state here.
    package init?(wireName: String) {
        switch wireName.lowercased() {
        case "initialized", "queued", "pending", "created": self = .initialized
        case "processing", "progress", "running", "in_progress", "job_started", "job_progress", "started":
            self = .processing
        case "completed", "complete", "done", "job_complete", "succeeded": self = .completed
        case "failed", "failure": self = .failed
        case "canceled", "cancelled": self = .canceled
        default: return nil
        }
    }

    /// Order of the life cycle; status never goes backwards.
    var rank: Int {
        switch self {
        case .initialized: 0
        case .processing: 1
        case .completed, .failed, .canceled: 2
        }
    }
}

/// The watcher's view of one job event's payload (SSE `data`, a status poll's `data`, a WebSocket
/// `payload`). The transport maps the contract's types into it; every field is optional.
package struct WatchedJobEvent: Sendable, Equatable, Hashable {
    /// The job id the event claims to be about.
    package var jobID: String?
    /// The status (`status`, or a timeout event's `lastStatus`).
    package var status: JobState?
    /// Progress as sent: 0…1, or production's 0…100 (normalised by the watcher).
    package var progress: Double?
    /// `processedCount`.
    package var processedCount: Int?
    /// `totalCount`.
    package var totalCount: Int?
    /// An error code (`error.code` of a failed job, or the `error` string of an SSE `error`/`timeout` event).
    package var errorCode: String?
    /// A human message.
    package var errorMessage: String?
    /// `error.retryable`.
    package var retryable: Bool?

    /// Creates a payload.
    package init(
        jobID: String? = nil,
        status: JobState? = nil,
        progress: Double? = nil,
        processedCount: Int? = nil,
        totalCount: Int? = nil,
        errorCode: String? = nil,
        errorMessage: String? = nil,
        retryable: Bool? = nil
    ) {
        self.jobID = jobID
        self.status = status
        self.progress = progress
        self.processedCount = processedCount
        self.totalCount = totalCount
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.retryable = retryable
    }
}

/// How progress reached the watcher.
package enum JobWatchChannel: String, Sendable, Equatable, Hashable {
    /// The SSE stream.
    case sse
    /// The status route.
    case polling
    /// The WebSocket.
    case webSocket
}

/// One progress report for the user: deduplicated, never going backwards.
package struct JobProgressUpdate: Sendable, Equatable, Hashable {
    /// The job.
    package var jobID: String
    /// The status (never goes backwards).
    package var status: JobState
    /// Progress in 0…1 (production's 0…100 normalised), when known; never decreases.
    package var fraction: Double?
    /// Rows/books processed, when known; never decreases.
    package var processedCount: Int?
    /// Rows/books in total, when known.
    package var totalCount: Int?
    /// The SSE event id, when the update came from an event with one.
    package var eventID: String?
    /// The channel it came over.
    package var channel: JobWatchChannel

    /// Creates an update.
    package init(
        jobID: String,
        status: JobState,
        fraction: Double? = nil,
        processedCount: Int? = nil,
        totalCount: Int? = nil,
        eventID: String? = nil,
        channel: JobWatchChannel
    ) {
        self.jobID = jobID
        self.status = status
        self.fraction = fraction
        self.processedCount = processedCount
        self.totalCount = totalCount
        self.eventID = eventID
        self.channel = channel
    }
}

/// How a watch ended.
package enum JobWatchOutcome: Sendable, Equatable, Hashable {
    /// The job completed and its results were fetched.
    case completed
    /// The job completed but its results could not be fetched (expired, network).
    case resultsUnavailable(message: String)
    /// The job failed.
    case failed(code: String?, message: String?, retryable: Bool?)
    /// The job was canceled.
    case canceled
    /// The server does not know the job.
    case notFound(message: String?)
    /// The server refused our credentials (WebSocket close 1008, HTTP 401/403).
    case unauthorized
    /// The user stopped watching; the job goes on on the server.
    case detached
    /// No channel could reach the server any more.
    case unreachable(reason: String)
}

/// Why a connection (SSE stream, status poll, results fetch) failed.
package enum JobConnectionFailure: Sendable, Equatable, Hashable {
    /// Refused, reset, DNS, TLS, broken stream: below HTTP.
    case transport(String)
    /// Nothing (not even a heartbeat) arrived within the liveness timeout, or a request deadline passed.
    case timedOut
    /// The server answered with an error status.
    case http(status: Int, code: String? = nil, retryAfter: Duration? = nil)

    var retryAfter: Duration? {
        if case .http(_, _, let retryAfter) = self { return retryAfter }
        return nil
    }

    var summary: String {
        switch self {
        case .transport(let text): text
        case .timedOut: "timed out"
        case .http(let status, let code, _): code.map { "\($0) (HTTP \(status))" } ?? "HTTP \(status)"
        }
    }
}

/// A WebSocket progress message (docs/contract.md §6), mapped by the transport.
package struct JobSocketMessage: Sendable, Equatable, Hashable {
    /// The message type.
    package enum Kind: Sendable, Equatable, Hashable {
        /// `ready_ack`: the server accepted our `ready`.
        case readyAck
        /// `job_started`.
        case jobStarted
        /// `job_progress`.
        case jobProgress
        /// `job_complete` (summary only; results by HTTP).
        case jobComplete
        /// `error`: the job failed.
        case error
        /// `ping`: answer with `pong`.
        case ping
        /// `pong`.
        case pong
        /// Anything else (ignored).
        case other(String)

        /// Maps the wire `type`.
        package init(type: String) {
            switch type {
            case "ready_ack": self = .readyAck
            case "job_started": self = .jobStarted
            case "job_progress": self = .jobProgress
            case "job_complete": self = .jobComplete
            case "error": self = .error
            case "ping": self = .ping
            case "pong": self = .pong
            default: self = .other(type)
            }
        }
    }

    /// The type.
    package var kind: Kind
    /// The payload (progress, processed count, status text, error).
    package var payload: WatchedJobEvent?

    /// Creates a message.
    package init(kind: Kind, payload: WatchedJobEvent? = nil) {
        self.kind = kind
        self.payload = payload
    }
}

/// Which channels the server offers for this job, and the timings of the watch loop.
package struct JobWatchConfiguration: Sendable, Equatable {
    /// The SSE stream route exists (the stand-in for all jobs; production for CSV imports).
    package var offersSSE: Bool
    /// The WebSocket route exists (production batch enrichment; legacy for imports).
    package var offersWebSocket: Bool
    /// The status route exists for polling.
    package var offersPolling: Bool
    /// After the stream fails, try the WebSocket before polling (batch jobs, whose progress production
    /// reports over the socket); polling stays the last resort (a production socket token works once).
    package var webSocketBeforePolling: Bool = false
    /// The reconnection delay until the stream sends `retry`.
    package var defaultReconnectionTime: Duration
    /// Consecutive failed connections before falling back (SSE → polling, WebSocket → polling).
    package var maxConsecutiveFailures: Int
    /// The polling interval.
    package var pollInterval: Duration
    /// Consecutive failed polls before giving up.
    package var maxConsecutivePollFailures: Int
    /// The first WebSocket backoff step after an abnormal close (doubles per failure).
    package var webSocketBackoffBase: Duration
    /// The longest WebSocket backoff.
    package var webSocketBackoffCap: Duration
    /// How long an open stream or socket may stay silent (no byte, no heartbeat comment) before the
    /// transport gives up on it and reports ``JobConnectionFailure/timedOut`` (default: `JobTimings.clientSilenceLimit`).
    package var livenessTimeout: Duration

    /// Creates a configuration; the defaults follow docs/contract.md §5/§6.
    package init(
        offersSSE: Bool = true,
        offersWebSocket: Bool = false,
        offersPolling: Bool = true,
        defaultReconnectionTime: Duration = .seconds(3),
        maxConsecutiveFailures: Int = 3,
        pollInterval: Duration = .seconds(2),
        maxConsecutivePollFailures: Int = 5,
        webSocketBackoffBase: Duration = .seconds(1),
        webSocketBackoffCap: Duration = .seconds(30),
        livenessTimeout: Duration = JobTimings.clientSilenceLimit
    ) {
        self.offersSSE = offersSSE
        self.offersWebSocket = offersWebSocket
        self.offersPolling = offersPolling
        self.defaultReconnectionTime = defaultReconnectionTime
        self.maxConsecutiveFailures = max(1, maxConsecutiveFailures)
        self.pollInterval = pollInterval
        self.maxConsecutivePollFailures = max(1, maxConsecutivePollFailures)
        self.webSocketBackoffBase = webSocketBackoffBase
        self.webSocketBackoffCap = webSocketBackoffCap
        self.livenessTimeout = livenessTimeout
    }

    /// The stand-in and production CSV imports: SSE first, then polling.
    package static let sse = JobWatchConfiguration()
    /// Production batch enrichment: WebSocket only.
    package static let webSocketOnly = JobWatchConfiguration(
        offersSSE: false,
        offersWebSocket: true,
        offersPolling: false
    )
}
