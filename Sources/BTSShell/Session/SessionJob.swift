import BooksTrackContract
import Foundation

/// A job started in this session: what `jobs` lists and what `cancel` needs (its token).
package struct SessionJob: Sendable, Hashable {
    package var id: String
    /// Its pipeline; `jobs` names it by the command that starts it (``Pipeline/commandName``).
    package var pipeline: Pipeline
    /// The bearer token for cancel and the WebSocket. Never printed.
    package var token: String?
    package var startedAt: Date
    package var totalCount: Int?
    package var processedCount: Int?
    /// The last status seen.
    package var status: SessionJobStatus
    /// Where it came from (file name or "3 ISBNs").
    package var source: String
    /// The local file an import was started from (its user columns go into the library).
    package var file: String? = nil

    /// The job as `jobs` shows it (no token).
    package var json: JSONValue {
        .record([
            ("jobId", id.json), ("kind", pipeline.commandName.json), ("status", status.rawValue.json),
            ("source", source.json),
            ("processedCount", processedCount.json), ("totalCount", totalCount.json),
            ("startedAt", ISO8601DateFormatter().string(from: startedAt).json),
        ])
    }
}

/// What the last command cost: shown by `timing` and, with `set timing on`, after each command.
package struct CommandMetrics: Sendable, Hashable {
    /// Wall time of the whole command.
    package var elapsed: Duration = .zero
    /// Time spent in API calls (retries and waits included).
    package var networkTime: Duration = .zero
    /// API calls made.
    package var calls = 0
    /// Calls answered by the client's cache.
    package var cacheHits = 0
    /// Server-side cache hits (`X-Cache: HIT`).
    package var serverCacheHits = 0
    /// Retries performed.
    package var retries = 0
    /// Budgets touched: "search 98/100".
    package var budgets: [String] = []
    /// The age of the oldest answer the disk cache gave because the server could not be reached.
    package var offlineAge: Duration?
    /// A call of the command timed out (the server did not answer in time: said as a timeout).
    package var serverTimedOut = false

    package init() {}

    /// One line: `12.3 ms total, network 10.1 ms (1 call, 0 cache hits) · budget search 98/100`.
    package var summary: String {
        var text = "time \(Self.format(elapsed))"
        if calls > 0 {
            text += " · network \(Self.format(networkTime)) (\(calls) call\(calls == 1 ? "" : "s")"
            text += ", \(cacheHits) cache hit\(cacheHits == 1 ? "" : "s")"
            if serverCacheHits > 0 { text += ", \(serverCacheHits) server cache hit\(serverCacheHits == 1 ? "" : "s")" }
            if retries > 0 { text += ", \(retries) retr\(retries == 1 ? "y" : "ies")" }
            text += ")"
        }
        if !budgets.isEmpty { text += " · budget " + budgets.joined(separator: ", ") }
        return text
    }

    var json: JSONValue {
        .record([
            ("elapsedMs", .number(Self.milliseconds(elapsed))), ("networkMs", .number(Self.milliseconds(networkTime))),
            ("calls", calls.json), ("cacheHits", cacheHits.json), ("serverCacheHits", serverCacheHits.json),
            ("retries", retries.json), ("budgets", budgets.json),
        ])
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let components = duration.components
        return (Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 * 1000 / 1000).rounded(
            toPlaces: 3
        )
    }

    /// `850 µs`, `12.3 ms`, `1.25 s`.
    package static func format(_ duration: Duration) -> String {
        let ms = milliseconds(duration)
        if ms < 1 { return String(format: "%.0f µs", ms * 1000) }
        if ms < 1000 { return String(format: "%.1f ms", ms) }
        return String(format: "%.2f s", ms / 1000)
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = Foundation.pow(10.0, Double(places))
        return (self * scale).rounded() / scale
    }
}

/// The jobs started in this session, oldest first, and those remembered from earlier sessions on
/// the same backend (``SessionJobStore``).
struct SessionJobs: Sendable, Hashable {
    var all: [SessionJob] = []
    /// Where jobs are remembered; nil: not at all.
    var store: SessionJobStore?
    /// The backend the jobs belong to, as the store keys it; nil (the embedded backend, or none
    /// open yet): nothing is remembered.
    var backend: String?
    /// The backend whose remembered jobs were merged into `all`.
    private var loadedFor: String?
    /// The jobs whose results this process has taken in (`watch` to the end, `results`).
    var collected: Set<String> = []
    /// When a coalesced update last wrote the store, and whether one has not been written since.
    private var lastWrite: ContinuousClock.Instant?
    private var unwritten = false
    /// Progress alone (`update(…, coalescing: true)`) rewrites the store at most this often; a
    /// state change is written at once. A stream of 20,000 progress events wrote and synced
    /// `jobs.json` 20,000 times.
    static let progressWriteInterval: Duration = .milliseconds(250)

    mutating func add(_ job: SessionJob) {
        all.append(job)
        save()
    }

    /// Merges the jobs remembered for the current backend (once per backend), oldest first.
    mutating func loadRemembered() {
        guard let store, let backend, loadedFor != backend else { return }
        loadedFor = backend
        let known = Set(all.map(\.id))
        let remembered = store.load(backend: backend).filter { !known.contains($0.id) }
        all = remembered + all
    }

    /// Writes the current backend's jobs to the store.
    func save() {
        guard let store, let backend else { return }
        store.save(all, backend: backend)
    }

    /// The jobs of this session whose results were never taken in and that may still bring some:
    /// not collected, not failed or canceled.
    var uncollected: [SessionJob] {
        all.filter { !collected.contains($0.id) && $0.status.mayBringResults }
    }

    /// `last`, an id or a unique prefix of a known one (``JobIDPrefix``) → the id (and the session's
    /// record of it, if any).
    func find(_ reference: String?) throws(ShellError) -> (id: String, record: SessionJob?) {
        let text = reference ?? "last"
        // An empty value (`watch "$unset"`) names no job: said at once, never asked of the server.
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ShellError(.usage, "no job given: name a job id, or 'last' for the most recent job", code: .noJob)
        }
        if text == "last" {
            guard let last = all.last else {
                throw ShellError(.failure, "no job has been started in this session ('last' needs one)", code: .noJob)
            }
            return (last.id, last)
        }
        let id = try JobIDPrefix.resolve(text, among: all.map(\.id))
        return (id, all.first { $0.id == id })
    }

    /// Updates the session's record of a job and writes the store. `coalescing` (a progress
    /// stream): unless the status changed, the write waits until `progressWriteInterval` has passed
    /// since the last one (`flush()` writes what is left).
    mutating func update(
        _ id: String,
        status: SessionJobStatus? = nil,
        processed: Int? = nil,
        total: Int? = nil,
        coalescing: Bool = false,
        now: ContinuousClock.Instant = .now
    ) {
        guard let index = all.firstIndex(where: { $0.id == id }) else { return }
        let changedState = status.map { $0 != all[index].status } ?? false
        if let status { all[index].status = status }
        if let processed { all[index].processedCount = processed }
        // A job of items never has none: production's v3 status says `totalCount: 0` when its job
        // state lacks the count; the total this session knows (2 ISBNs, a file's rows) stays.
        if let total, total > 0 || (all[index].totalCount ?? 0) == 0 { all[index].totalCount = total }
        if coalescing, !changedState, let lastWrite, now - lastWrite < Self.progressWriteInterval {
            unwritten = true
            return
        }
        lastWrite = now
        unwritten = false
        save()
    }

    /// Writes the store if a coalesced update has not been written yet.
    mutating func flush() {
        guard unwritten else { return }
        unwritten = false
        save()
    }
}

extension ErrorCode {
    /// No job named, or `last` before any job.
    static let noJob: ErrorCode = "NO_JOB"
}
