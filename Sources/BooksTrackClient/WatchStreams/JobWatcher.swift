import BooksTrackContract
import Foundation

/// Follows one job live for a ``BooksTrackAPI`` (``BooksTrackAPI/watcher``): the pure
/// ``JobWatchStateMachine`` decides, this type does what it says over the job's channels — the SSE
/// stream (`JobWatcher+SSE`), the WebSocket (`JobWatcher+WebSocket`) and the status route — and turns
/// the machine's steps into ``WatchEvent``s. What the channels carry is read by ``JobWatchDecoding``.
///
/// The client answers what is the job's rather than the connection's: the dialect, the job's tokens
/// (the v3 stream token, a refreshed batch token), its status and results routes, and the end of the
/// job (its token is no longer refreshed).
package struct JobWatcher: Sendable {
    /// The client whose job routes, tokens and dialect the watch uses.
    let client: BooksTrackAPI
    /// The client's settings: base URL, deadlines, bearer token, trace, sleep.
    let configuration: APIConfiguration
    /// The client's HTTP client: streams and sockets reach it directly, outside the call pipeline.
    let transport: HTTPTransport

    /// Follows a job live: SSE (reconnecting after the server's `retry` with `Last-Event-ID`), polling
    /// the status route every 2 s after 3 consecutive failed connections or a `timeout` event, and the
    /// WebSocket for batch jobs on servers that only offer that. On `completed` the results are
    /// fetched and yielded. Cancelling the consuming task detaches; the job keeps running.
    ///
    /// - Parameters:
    ///   - token: the job's `authToken` (enables the WebSocket channel for batch jobs).
    package func watch(
        jobID: String,
        pipeline: Pipeline = .csvImport,
        token: String? = nil,
        options: WatchOptions = WatchOptions()
    ) -> AsyncThrowingStream<WatchEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                await self.run(jobID: jobID, pipeline: pipeline, token: token, options: options, continuation)
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func run(
        jobID: String,
        pipeline: Pipeline,
        token: String?,
        options: WatchOptions,
        _ continuation: AsyncThrowingStream<WatchEvent, any Error>.Continuation
    ) async {
        // Streams and sockets reach the HTTP client directly: the base URL passes ServerURL first.
        if let problem = ServerURL.problem(configuration.baseURL) {
            continuation.finish(
                throwing: HTTPTransport.badURL(
                    problem,
                    url: SecretMasking.maskURL(configuration.baseURL.absoluteString)
                )
            )
            return
        }
        // Streams need the in-process server's socket (which it may open only now).
        if let inProcess = configuration.inProcess {
            do throws(BooksTrackError) {
                try await inProcess.openSocket(for: SecretMasking.maskURL(configuration.baseURL.absoluteString))
            } catch {
                continuation.finish(throwing: error)
                return
            }
        }
        // A batch job with a token is followed over the WebSocket when its stream fails; any job with
        // a token is when the stream does not know it (production keeps jobs of its legacy progress
        // object out of the stream's store).
        // Polling is the last resort for every job: a production socket token works for one
        // connection, so a second watch of a batch job is refused there and polls instead.
        // v3: the job's own token (64 hex, from its 202) opens its stream; without one (a job started
        // elsewhere, or a refreshed UUID token) the status route is polled (bendv3 jobs/stream.ts).
        let v3 = await client.dialect == .v3
        let v3Token = v3 ? await client.v3StreamToken(jobID, given: token) : nil
        let useSocket = !v3 && pipeline == .batchEnrichment && token != nil
        var config = JobWatchConfiguration(
            offersSSE: !v3 || v3Token != nil,
            offersWebSocket: !v3 && token != nil,
            offersPolling: true,
            defaultReconnectionTime: options.defaultReconnectionTime,
            maxConsecutiveFailures: options.maxConsecutiveFailures,
            pollInterval: options.pollInterval
        )
        config.webSocketBeforePolling = useSocket
        var machine = JobWatchStateMachine(jobID: jobID, configuration: config)
        var step = machine.start()
        var channel: JobWatchChannel?
        func announce(_ next: JobWatchChannel) {
            if channel != next {
                channel = next
                continuation.yield(.channel(next))
            }
        }
        while !Task.isCancelled {
            for update in step.progress { continuation.yield(.progress(update)) }
            switch step.action {
            case .none, .sendPong:
                // Only reachable if a channel returned without a decision: poll to learn the state.
                step = JobWatchStep(action: .poll(after: options.pollInterval))
            case .openStream(let lastEventID, let after):
                if after > .zero {
                    let delay = min(after, options.maxReconnectionTime)
                    continuation.yield(.reconnecting(after: delay, reason: "the event stream ended"))
                    guard (try? await configuration.sleep(delay)) != nil else { break }
                }
                announce(.sse)
                step = await runStream(
                    jobID: jobID,
                    pipeline: pipeline,
                    v3Token: v3Token,
                    lastEventID: lastEventID,
                    machine: &machine,
                    continuation
                )
            case .poll(let after):
                announce(.polling)
                if after > .zero { guard (try? await configuration.sleep(after)) != nil else { break } }
                do {
                    let status = try await client.jobStatusOnce(jobID, pipeline: pipeline)
                    step = machine.pollSucceeded(JobWatchDecoding.payload(status))
                } catch {
                    if error.isCancellation { break }
                    step = machine.pollFailed(JobWatchDecoding.connectionFailure(error))
                }
            case .openWebSocket(let after):
                if after > .zero { guard (try? await configuration.sleep(after)) != nil else { break } }
                announce(.webSocket)
                // The client's own token when it has one: it may have been refreshed since the start.
                let current = await client.presentableToken(for: jobID, given: token) ?? ""
                step = await runSocket(jobID: jobID, token: current, machine: &machine, continuation)
            case .fetchResults:
                if !options.fetchResults {
                    step = machine.resultsFetched()
                    continue
                }
                do {
                    let results = try await client.jobResults(jobID, pipeline: pipeline)
                    continuation.yield(.results(results.value))
                    step = machine.resultsFetched()
                } catch {
                    if error.isCancellation { break }
                    step = machine.resultsFailed(JobWatchDecoding.connectionFailure(error))
                }
            case .finish(let outcome):
                if outcome != .detached { await client.jobEnded(jobID) }
                continuation.yield(.finished(outcome))
                continuation.finish()
                return
            }
        }
        _ = machine.userDetached()
        continuation.yield(.finished(.detached))
        continuation.finish()
    }
}
