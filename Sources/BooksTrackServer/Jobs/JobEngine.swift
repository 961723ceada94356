import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Logging

/// Runs CSV imports and batch enrichments in the background and keeps, per job, its record, an
/// append-only event log (ids `<ms>-<seq>`) and its results, persisted in SQLite
/// (`<dataDirectory>/jobs.sqlite`).
///
/// - Jobs that were running when the server stopped are marked `failed` with `E_UNKNOWN_ERROR`
///   ("server restarted…") when the engine is next opened on the same directory.
/// - Results (and the job itself) are kept for `importResultsTTL` / `batchResultsTTL` after the job
///   ends, then every route answers 404.
/// - Watchers subscribe to a job: they get the events after a given sequence number, then live events,
///   with no gap and no duplicate (the snapshot and the registration happen in one actor step).
package actor JobEngine {
    package nonisolated let configuration: JobEngineConfiguration
    nonisolated let catalog: any CatalogQuerying
    nonisolated let clock: any JobClock
    nonisolated let logger: Logger
    /// Drop decisions for the SSE fault (nil unless fault injection is on).
    nonisolated let sseDropPlan: SSEDropPlan?
    private let store: JobStore

    private var jobs: [String: JobRecord]
    private var logs: [String: [JobEvent]]
    private var running: [String: RunningJob] = [:]
    private var watchers: [String: [UUID: AsyncStream<JobEvent>.Continuation]] = [:]
    private var lastSweep: Date
    private var isShutDown = false

    /// Per running job: its worker and what it has produced so far.
    struct RunningJob {
        var task: Task<Void, Never>?
        var progressStride = 1
        var importTally = ImportTally()
        var batchResults: [BatchItemResult] = []
        var scanResults: [DetectedBook] = []
    }

    /// Opens the engine on `configuration.dataDirectory`, recovering the jobs stored there.
    package init(
        configuration: JobEngineConfiguration,
        catalog: any CatalogQuerying,
        clock: any JobClock = SystemJobClock(),
        logger: Logger = Logger(label: "bts.jobs")
    ) throws {
        let store = try JobStore(directory: configuration.dataDirectory)
        let now = clock.now()
        var jobs: [String: JobRecord] = [:]
        var logs: [String: [JobEvent]] = [:]
        var expired: [String] = []
        for (stored, storedEvents) in try store.loadAll() {
            var record = stored
            var events = storedEvents
            if let expiry = record.expiresAt, expiry <= now {
                expired.append(record.id)
                continue
            }
            if !record.status.isTerminal {
                record.status = .failed
                record.error = .serverRestarted
                record.completedTime = now
                record.expiresAt = now.addingTimeInterval(configuration.resultsTTL(for: record.pipeline).jobSeconds)
                let event = Self.makeEvent(for: record, sequence: (events.last?.sequence ?? 0) + 1, at: now)
                try store.save(record, appending: event)
                events.append(event)
                logger.notice("job marked failed after restart", metadata: ["job": "\(record.id)"])
            }
            jobs[record.id] = record
            logs[record.id] = events
        }
        try store.delete(expired)
        self.configuration = configuration
        self.catalog = catalog
        self.clock = clock
        self.logger = logger
        self.store = store
        self.jobs = jobs
        self.logs = logs
        self.lastSweep = now
        self.sseDropPlan = configuration.activeSSEDropFault.map(SSEDropPlan.init)
    }

    // MARK: Submission

    /// Why a job was not created.
    package enum SubmissionError: Error, Sendable, Hashable {
        /// The client already runs `limit` unfinished jobs.
        case tooManyConcurrentJobs(limit: Int)
        /// All clients together already run `limit` unfinished jobs.
        case serverBusy(limit: Int)
        /// A client-chosen job id that belongs to another client or another kind of job.
        case jobIDInUse(String)
        /// The engine is shutting down.
        case shuttingDown
    }

    /// Starts a CSV import of `csv` for client `owner`. Structural CSV problems fail the job later.
    package func submitImport(csv: [UInt8], owner: String) throws(SubmissionError) -> JobRecord {
        let record = try create(pipeline: .csvImport, id: Self.makeJobID(), owner: owner, totalCount: 0)
        let maxRows = configuration.maxCSVRows
        let pacing = itemPacing
        let catalog = catalog
        let id = record.id
        running[id]?.task = Task.detached(executorPreference: workerExecutor) { [self] in
            await Self.runImport(engine: self, jobID: id, csv: csv, catalog: catalog, maxRows: maxRows, pacing: pacing)
        }
        return record
    }

    /// Starts a batch enrichment. A repeated `clientJobID` of the same client returns the existing job
    /// (`reused` = true) and starts nothing.
    package func submitBatch(
        items: [BatchBook],
        clientJobID: String?,
        owner: String
    ) throws(SubmissionError) -> (
        record: JobRecord, reused: Bool
    ) {
        if let clientJobID, let existing = liveRecord(clientJobID) {
            guard existing.pipeline == .batchEnrichment, existing.owner == owner else {
                throw .jobIDInUse(clientJobID)
            }
            return (existing, true)
        }
        let record = try create(
            pipeline: .batchEnrichment,
            id: clientJobID ?? Self.makeJobID(),
            owner: owner,
            totalCount: items.count
        )
        let pacing = itemPacing
        let catalog = catalog
        let id = record.id
        running[id]?.task = Task.detached(executorPreference: workerExecutor) { [self] in
            await Self.runBatch(engine: self, jobID: id, items: items, catalog: catalog, pacing: pacing)
        }
        return (record, false)
    }

    /// Starts a bookshelf scan of `photos` (each JPEG, PNG or WebP): one item a photo.
    package func submitScan(photos: [[UInt8]], owner: String) throws(SubmissionError) -> JobRecord {
        let record = try create(pipeline: .bookshelfScan, id: Self.makeJobID(), owner: owner, totalCount: photos.count)
        let pacing = itemPacing
        let catalog = catalog
        let id = record.id
        running[id]?.task = Task.detached(executorPreference: workerExecutor) { [self] in
            await Self.runScan(engine: self, jobID: id, photos: photos, catalog: catalog, pacing: pacing)
        }
        return record
    }

    /// One photo read: its books (each ISBN once over the whole job); false when the job is no longer running.
    func recordScanPhoto(_ id: String, _ books: [DetectedBook]) -> Bool {
        guard running[id] != nil else { return false }
        let seen = Set(running[id]?.scanResults.compactMap(\.isbn) ?? [])
        running[id]?.scanResults.append(contentsOf: books.filter { $0.isbn.map { !seen.contains($0) } ?? true })
        return advance(id, succeeded: true)
    }

    /// Why a job of `owner` would be refused now (nil: it would be created). The upload routes ask
    /// before they read a body, so a busy server answers at once instead of after the upload
    /// (`create` asks again: another job may have been created meanwhile).
    package func refusal(owner: String) -> SubmissionError? {
        guard !isShutDown else { return .shuttingDown }
        let limit = configuration.maxConcurrentJobsPerClient
        let unfinished = jobs.values.filter { !$0.status.isTerminal }
        guard unfinished.count(where: { $0.owner == owner }) < limit else {
            return .tooManyConcurrentJobs(limit: limit)
        }
        guard unfinished.count < configuration.maxConcurrentJobs else {
            return .serverBusy(limit: configuration.maxConcurrentJobs)
        }
        return nil
    }

    /// Where workers run (`JobEngineConfiguration.workersOnOwnThread`).
    private nonisolated var workerExecutor: (any TaskExecutor)? {
        configuration.workersOnOwnThread ? JobExecutor.shared : nil
    }

    private var itemPacing: Duration? {
        configuration.itemsPerSecond > 0 ? .nanoseconds(Int64(1e9 / configuration.itemsPerSecond)) : nil
    }

    private func create(
        pipeline: JobPipeline,
        id: String,
        owner: String,
        totalCount: Int
    ) throws(SubmissionError)
        -> JobRecord
    {
        sweepIfDue()
        if let refusal = refusal(owner: owner) { throw refusal }
        let now = clock.now()
        let record = JobRecord(
            id: id,
            pipeline: pipeline,
            status: .initialized,
            processedCount: 0,
            totalCount: totalCount,
            startTime: now,
            completedTime: nil,
            owner: owner,
            authToken: Self.makeToken(),
            tokenExpiresAt: now.addingTimeInterval(configuration.tokenLifetime.jobSeconds),
            error: nil,
            successCount: 0,
            failureCount: 0,
            expiresAt: nil
        )
        jobs[id] = record
        logs[id] = []
        running[id] = RunningJob()
        publish(record)
        logger.info("job created", metadata: ["job": "\(id)", "pipeline": "\(pipeline.rawValue)"])
        return record
    }

    // MARK: Worker callbacks

    /// The worker knows the item count and starts; false when the job is no longer running.
    func beginProcessing(_ id: String, totalCount: Int) -> Bool {
        guard running[id] != nil, var record = jobs[id], record.status == .initialized else { return false }
        record.status = .processing
        record.totalCount = totalCount
        running[id]?.progressStride = max(
            1,
            Int((Double(totalCount) / Double(configuration.maxProgressEvents)).rounded(.up))
        )
        jobs[id] = record
        publish(record)
        return true
    }

    /// One CSV row done; false when the job is no longer running (canceled, shut down).
    func recordImportRow(_ id: String, _ outcome: ImportRowOutcome) -> Bool {
        guard running[id] != nil else { return false }
        let succeeded = running[id]?.importTally.add(outcome) ?? false
        return advance(id, succeeded: succeeded)
    }

    /// One batch item done; false when the job is no longer running.
    func recordBatchItem(_ id: String, _ result: BatchItemResult) -> Bool {
        guard running[id] != nil else { return false }
        running[id]?.batchResults.append(result)
        return advance(id, succeeded: result.success)
    }

    private func advance(_ id: String, succeeded: Bool) -> Bool {
        guard var record = jobs[id], record.status == .processing else { return false }
        record.processedCount += 1
        if succeeded { record.successCount += 1 } else { record.failureCount += 1 }
        jobs[id] = record
        let stride = running[id]?.progressStride ?? 1
        if record.processedCount < record.totalCount, record.processedCount % stride == 0 {
            publish(record)
        }
        return true
    }

    /// The worker finished every item.
    func complete(_ id: String) {
        guard let run = running[id], var record = jobs[id], !record.status.isTerminal else { return }
        record.status = .completed
        finish(&record, results: resultsBody(record.pipeline, run))
    }

    /// The job cannot go on (e.g. a structurally bad CSV).
    func fail(_ id: String, _ error: JobError) {
        guard running[id] != nil, var record = jobs[id], !record.status.isTerminal else { return }
        record.status = .failed
        record.error = error
        logger.info("job failed", metadata: ["job": "\(id)", "code": "\(error.code.rawValue)"])
        finish(&record, results: nil)
    }

    private func finish(_ record: inout JobRecord, results: Data?) {
        let now = clock.now()
        record.completedTime = now
        record.expiresAt = now.addingTimeInterval(configuration.resultsTTL(for: record.pipeline).jobSeconds)
        jobs[record.id] = record
        running[record.id] = nil
        publish(record, results: results)
    }

    private func resultsBody(_ pipeline: JobPipeline, _ run: RunningJob) -> Data? {
        let encoder = JSONCoding.encoder()
        do {
            switch pipeline {
            case .csvImport: return try encoder.encode(run.importTally.results)
            case .batchEnrichment: return try encoder.encode(run.batchResults)
            case .bookshelfScan: return try encoder.encode(run.scanResults)
            }
        } catch {
            logger.error("could not encode job results", metadata: ["error": "\(error)"])
            return nil
        }
    }

    // MARK: Events

    static func makeEvent(for record: JobRecord, sequence: Int, at date: Date) -> JobEvent {
        JobEvent(
            jobID: record.id,
            sequence: sequence,
            id: "\(date.epochMilliseconds)-\(sequence)",
            payload: record.eventPayload
        )
    }

    /// Appends an event for the record's current state, persists both, and tells the watchers
    /// (finishing their streams after a terminal event).
    private func publish(_ record: JobRecord, results: Data? = nil) {
        let event = Self.makeEvent(for: record, sequence: (logs[record.id]?.last?.sequence ?? 0) + 1, at: clock.now())
        logs[record.id, default: []].append(event)
        do {
            try store.save(record, appending: event, results: results)
        } catch {
            logger.error("could not persist job event", metadata: ["job": "\(record.id)", "error": "\(error)"])
        }
        guard let continuations = watchers[record.id] else { return }
        for continuation in continuations.values { continuation.yield(event) }
        if record.status.isTerminal {
            for continuation in continuations.values { continuation.finish() }
            watchers[record.id] = nil
        }
    }

    // MARK: Queries

    /// The job, unless unknown or expired.
    package func record(of id: String) -> JobRecord? {
        sweepIfDue()
        return liveRecord(id)
    }

    /// The job's event log so far.
    package func events(of id: String) -> [JobEvent] {
        liveRecord(id) == nil ? [] : logs[id] ?? []
    }

    /// Results of a job.
    package enum ResultsLookup: Sendable {
        /// The JSON of `ImportResults` (imports) or `[BatchItemResult]` (batches).
        case ready(JobRecord, Data)
        /// The job exists but has no results (still running, or failed).
        case unavailable(JobRecord)
        case notFound
    }

    package func results(of id: String) -> ResultsLookup {
        sweepIfDue()
        guard let record = liveRecord(id) else { return .notFound }
        guard record.status == .completed || record.status == .canceled else { return .unavailable(record) }
        do {
            guard let body = try store.results(of: id) else { return .unavailable(record) }
            return .ready(record, body)
        } catch {
            logger.error("could not read job results", metadata: ["job": "\(id)", "error": "\(error)"])
            return .unavailable(record)
        }
    }

    /// A job known and not expired (expired ones are forgotten on the way).
    private func liveRecord(_ id: String) -> JobRecord? {
        guard let record = jobs[id] else { return nil }
        if let expiry = record.expiresAt, expiry <= clock.now() {
            forget([id])
            return nil
        }
        return record
    }

    private func sweepIfDue() {
        let now = clock.now()
        guard now.timeIntervalSince(lastSweep) >= 1 else { return }
        lastSweep = now
        let expired = jobs.values.filter { ($0.expiresAt.map { $0 <= now }) == true }.map(\.id)
        forget(expired)
    }

    private func forget(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        for id in ids {
            jobs[id] = nil
            logs[id] = nil
        }
        do {
            try store.delete(ids)
        } catch {
            logger.error("could not delete expired jobs", metadata: ["error": "\(error)"])
        }
    }

    // MARK: Watching

    /// A watcher's view: events after the requested one, then live events (finished after the
    /// terminal event, or at once when the job has already ended).
    package struct Subscription: Sendable {
        package var record: JobRecord
        package var replay: [JobEvent]
        package var live: AsyncStream<JobEvent>
    }

    /// Subscribes to the events of `id` with a sequence number above `afterSequence`; nil for an unknown job.
    package func subscribe(to id: String, afterSequence: Int = 0) -> Subscription? {
        guard let record = liveRecord(id) else { return nil }
        let replay = (logs[id] ?? []).filter { $0.sequence > afterSequence }
        let (stream, continuation) = AsyncStream<JobEvent>.makeStream(bufferingPolicy: .unbounded)
        if record.status.isTerminal || isShutDown {
            continuation.finish()
        } else {
            let key = UUID()
            watchers[id, default: [:]][key] = continuation
            continuation.onTermination = { [weak self] _ in
                Task { await self?.unsubscribe(id, key) }
            }
        }
        return Subscription(record: record, replay: replay, live: stream)
    }

    private func unsubscribe(_ id: String, _ key: UUID) {
        watchers[id]?[key] = nil
        if watchers[id]?.isEmpty == true { watchers[id] = nil }
    }

    /// Number of live watchers of a job.
    package func watcherCount(of id: String) -> Int { watchers[id]?.count ?? 0 }

    // MARK: Tokens and cancel

    /// Whether `token` is the job's current, unexpired token.
    package enum TokenCheck: Sendable, Hashable {
        case valid
        case notFound
        case invalid
        case expired
    }

    package func checkToken(_ token: String?, for id: String) -> TokenCheck {
        guard let record = liveRecord(id) else { return .notFound }
        guard let token, Self.constantTimeEqual(token, record.authToken) else { return .invalid }
        return record.tokenExpiresAt > clock.now() ? .valid : .expired
    }

    /// What a cancel did.
    package enum CancelOutcome: Sendable {
        case canceled(JobRecord, cleanup: JSONValue)
        /// The job had already ended (completed, failed or canceled); nothing changed.
        case alreadyFinished(JobRecord)
        case notFound
        case unauthorized(reason: String)
    }

    /// Cancels a job after checking its token. Idempotent: an ended job is reported as is.
    package func cancel(_ id: String, token: String) -> CancelOutcome {
        switch checkToken(token, for: id) {
        case .notFound: return .notFound
        case .invalid: return .unauthorized(reason: "the Bearer token does not match this job")
        case .expired: return .unauthorized(reason: "the job's token has expired")
        case .valid: break
        }
        guard var record = jobs[id] else { return .notFound }
        guard !record.status.isTerminal, let run = running[id] else { return .alreadyFinished(record) }
        run.task?.cancel()
        let notified = watchers[id]?.count ?? 0
        record.status = .canceled
        finish(&record, results: resultsBody(record.pipeline, run))
        logger.info("job canceled", metadata: ["job": "\(id)"])
        let cleanup: JSONValue = [
            "workerStopped": true,
            "itemsProcessed": .number(Double(record.processedCount)),
            "itemsSkipped": .number(Double(max(0, record.totalCount - record.processedCount))),
            "partialResultsKept": true,
            "watchersNotified": .number(Double(notified)),
        ]
        return .canceled(record, cleanup: cleanup)
    }

    /// A token refresh.
    package enum RefreshOutcome: Sendable, Hashable {
        case refreshed(token: String, expiresIn: Int)
        case notFound
        case unauthorized(reason: String)
        /// Refresh is allowed only in the last `tokenRefreshWindow` of a token's life.
        case tooEarly(secondsUntilAllowed: Int)
    }

    /// Replaces the job's token with a new one (the old one stops working).
    package func refreshToken(of id: String, oldToken: String) -> RefreshOutcome {
        switch checkToken(oldToken, for: id) {
        case .notFound: return .notFound
        case .invalid: return .unauthorized(reason: "oldToken does not match this job")
        case .expired: return .unauthorized(reason: "the token has expired; it cannot be refreshed")
        case .valid: break
        }
        guard var record = jobs[id] else { return .notFound }
        let now = clock.now()
        let remaining = record.tokenExpiresAt.timeIntervalSince(now)
        let window = configuration.tokenRefreshWindow.jobSeconds
        guard remaining <= window else { return .tooEarly(secondsUntilAllowed: Int((remaining - window).rounded(.up))) }
        record.authToken = Self.makeToken()
        record.tokenExpiresAt = now.addingTimeInterval(configuration.tokenLifetime.jobSeconds)
        jobs[id] = record
        do {
            try store.save(record)
        } catch {
            logger.error("could not persist refreshed token", metadata: ["job": "\(id)", "error": "\(error)"])
        }
        return .refreshed(token: record.authToken, expiresIn: Int(configuration.tokenLifetime.jobSeconds))
    }

    // MARK: Shutdown

    /// Stops every worker and ends every watcher's stream. Unfinished jobs stay unfinished on disk and
    /// become `failed` ("server restarted") when an engine is next opened on the same directory.
    package func shutdown() {
        isShutDown = true
        for run in running.values { run.task?.cancel() }
        running = [:]
        for continuations in watchers.values {
            for continuation in continuations.values { continuation.finish() }
        }
        watchers = [:]
    }

    // MARK: Helpers

    static func makeJobID() -> String { UUID().uuidString.lowercased() }

    /// 256 random bits, hex.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<x.count { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
