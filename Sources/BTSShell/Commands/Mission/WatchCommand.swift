import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `watch [JOB|last]`.
struct WatchCommand: ShellCommand {
    static let result: CommandResult = .shape(.jobResults)

    static let job = ArgumentSpec("JOB", "A job id, or 'last' (the default)", optional: true, completion: .jobID)

    static let configuration = CommandSpec(
        "watch",
        group: .mission,
        summary: "Follow a job's progress live, then show its results",
        discussion: "Uses server-sent events, falling back to polling. Ctrl-C stops watching; the job keeps running.",
        positionals: [job],
        examples: ["watch", "watch last", "watch ${_.jobId}"]
    )

    static let budget: RateLimitClass? = .jobs

    var job: String?

    init(_ resolved: ResolvedCommand) {
        job = resolved.string(Self.job)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let (id, record) = try context.findJob(job)
        return try await Self.follow(id, record: record, in: context)
    }

    /// What Ctrl-C during `watch` says: each line under 80 columns for a 36-character job id.
    static func detachMessage(_ id: String) -> String {
        // An id that cannot be shown whole cannot be typed from the message either: 'jobs' has it.
        let again = SessionJob.isPlausibleID(id) ? "'watch \(id)' follows it again" : "'jobs' lists it"
        return "detached from job \(SessionJob.displayID(id)) (it keeps running)\n" + again
    }

    /// Follows a job: a progress bar redrawn in place on a terminal's stderr; with `set progress on`
    /// and stderr not a terminal, one JSON object per event on stderr instead. stdout gets only the
    /// result (so `import … --watch | jq` sees one document). Ctrl-C detaches (the job keeps running).
    /// Ends with the results summary and error rows.
    ///
    /// `detaches: false` (the shell finishing the embedded backend's jobs before it exits): Ctrl-C
    /// says nothing here and throws `CancellationError`; the caller says what becomes of the job.
    static func follow(
        _ id: String,
        record: SessionJob?,
        detaches: Bool = true,
        in context: isolated any CommandContext
    ) async throws -> CommandOutput {
        let api = try await context.backend().api
        let output = context.output
        let pipeline = record?.pipeline ?? .csvImport
        let bar = output.redrawsProgress
        let events = output.showsProgress && !bar
        let line = ProgressLine()
        let clock = ContinuousClock()
        let started = clock.now
        var rate = ProgressRate()
        var results: JobResults?
        var outcome: JobWatchOutcome?
        var drawn = false
        // Progress is written coalesced; whatever ends the watch, the last of it is written.
        defer { context.jobs.flush() }
        do {
            for try await event in api.watch(jobID: id, pipeline: pipeline, token: record?.token) {
                switch event {
                case .channel(let channel):
                    if events {
                        output.progressEvent(
                            JSONValue.record([
                                ("event", "channel".json), ("jobId", id.json), ("channel", channel.rawValue.json),
                            ])
                        )
                    }
                case .progress(let update):
                    context.jobs.update(
                        id,
                        status: .state(update.status),
                        processed: update.processedCount,
                        total: update.totalCount,
                        coalescing: true
                    )
                    if events {
                        output.progressEvent(
                            JSONValue.record([
                                ("event", "progress".json), ("jobId", id.json), ("status", update.status.rawValue.json),
                                ("progress", update.fraction.json), ("processedCount", update.processedCount.json),
                                ("totalCount", update.totalCount.json),
                            ])
                        )
                    }
                    if bar {
                        let elapsed = clock.now - started
                        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                        let perSecond = rate.observe(processed: update.processedCount, at: seconds)
                        let text = line.render(
                            fraction: update.fraction,
                            processed: update.processedCount,
                            total: update.totalCount,
                            rate: perSecond,
                            status: update.status
                        )
                        output.redraw(text)
                        drawn = true
                    }
                case .reconnecting(let after, let reason):
                    if events {
                        output.progressEvent(
                            JSONValue.record([
                                ("event", "reconnecting".json), ("jobId", id.json), ("reason", reason.json),
                            ])
                        )
                    }
                    if bar { output.redraw("watch: \(reason); reconnecting in \(after)") }
                case .results(let fetched):
                    results = fetched
                case .finished(let end):
                    outcome = end
                }
            }
        } catch {
            if !Task.isCancelled { throw error }
        }
        if drawn { output.redraw("") }
        if Task.isCancelled || outcome == .detached, !detaches { throw CancellationError() }
        if Task.isCancelled || outcome == .detached {
            // Said once (not also "interrupted"), in two lines that fit 80 columns whole.
            output.note(Self.detachMessage(id))
            throw SilentFailure(status: ExitStatus.interrupted.rawValue)
        }
        switch outcome {
        case .completed?:
            context.jobs.update(id, status: .state(.completed))
            guard let results else {
                throw ShellError(.failure, "job \(SessionJob.displayID(id)) completed but sent no results")
            }
            context.jobs.collected.insert(id)
            return try await .savedJobResults(results, jobID: id, record: record, in: context)
        case .resultsUnavailable(let message)?:
            context.jobs.update(id, status: .state(.completed))
            throw ShellError(
                .failure,
                "job \(SessionJob.displayID(id)) completed but its results are unavailable: \(message)"
            )
        case .failed(let code, let message, _)?:
            context.jobs.update(id, status: .state(.failed))
            throw ShellError(
                .failure,
                "job \(SessionJob.displayID(id)) failed: \([code, message].compactMap { $0 }.joined(separator: ": "))",
                code: code.map(ErrorCode.init(rawValue:)) ?? .jobFailed
            )
        case .canceled?:
            context.jobs.update(id, status: .state(.canceled))
            throw ShellError(.failure, "job \(SessionJob.displayID(id)) was canceled", code: .jobCanceled)
        case .notFound(let message)?:
            throw ShellError(.failure, message ?? "job \(SessionJob.displayID(id)) not found", code: .notFound)
        case .unauthorized?:
            throw ShellError(
                .failure,
                "the server refused the job's token for \(SessionJob.displayID(id))",
                code: .unauthorized
            )
        case .unreachable(let reason)?:
            throw ShellError(
                .network,
                "lost the server while watching job \(SessionJob.displayID(id)): \(reason)",
                code: .networkError
            )
        case .detached?, nil:
            throw ShellError(
                .failure,
                "the progress stream of job \(SessionJob.displayID(id)) ended without a final status"
            )
        }
    }
}

extension ErrorCode {
    /// A watched job that was canceled.
    static let jobCanceled: ErrorCode = "JOB_CANCELED"
    /// A watched job that failed without a code of its own.
    static let jobFailed: ErrorCode = "JOB_FAILED"
}
