import AsyncHTTPClient
import BooksTrackContract
import Foundation
import NIOCore
import NIOHTTP1

extension BooksTrackAPI {
    /// Follows a job live: SSE (reconnecting after the server's `retry` with `Last-Event-ID`), polling
    /// the status route every 2 s after 3 consecutive failed connections or a `timeout` event, and the
    /// WebSocket for batch jobs on servers that only offer that. On `completed` the results are
    /// fetched and yielded. Cancelling the consuming task detaches; the job keeps running.
    ///
    /// - Parameters:
    ///   - token: the job's `authToken` (enables the WebSocket channel for batch jobs).
    package nonisolated func watch(
        jobID: String,
        pipeline: Pipeline = .csvImport,
        token: String? = nil,
        options: WatchOptions = WatchOptions()
    ) -> AsyncThrowingStream<WatchEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                await self.runWatch(jobID: jobID, pipeline: pipeline, token: token, options: options, continuation)
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    nonisolated func runWatch(
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
        let v3 = await dialect == .v3
        let v3Token = v3 ? await v3StreamToken(jobID, given: token) : nil
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
                    let status = try await jobStatusOnce(jobID, pipeline: pipeline)
                    step = machine.pollSucceeded(Self.payload(status))
                } catch {
                    if error.isCancellation { break }
                    step = machine.pollFailed(Self.connectionFailure(error))
                }
            case .openWebSocket(let after):
                if after > .zero { guard (try? await configuration.sleep(after)) != nil else { break } }
                announce(.webSocket)
                // The client's own token when it has one: it may have been refreshed since the start.
                let current = await presentableToken(for: jobID, given: token) ?? ""
                step = await runSocket(jobID: jobID, token: current, machine: &machine, continuation)
            case .fetchResults:
                if !options.fetchResults {
                    step = machine.resultsFetched()
                    continue
                }
                do {
                    let results = try await jobResults(jobID, pipeline: pipeline)
                    continuation.yield(.results(results.value))
                    step = machine.resultsFetched()
                } catch {
                    if error.isCancellation { break }
                    step = machine.resultsFailed(Self.connectionFailure(error))
                }
            case .finish(let outcome):
                if outcome != .detached { await jobEnded(jobID) }
                continuation.yield(.finished(outcome))
                continuation.finish()
                return
            }
        }
        _ = machine.userDetached()
        continuation.yield(.finished(.detached))
        continuation.finish()
    }

    /// Status without retries (the watcher decides what a failure means).
    func jobStatusOnce(
        _ jobID: String,
        pipeline: Pipeline? = nil
    ) async throws(BooksTrackError) -> BooksTrackContract.JobStatus {
        if dialect == .v3 { return try await v3JobStatus(jobID, pipeline: pipeline, retries: false).value }
        var spec = RequestSpec(.GET, KnownRoute.importStatus.path(Self.pathSegment(jobID)))
        spec.retries = false
        spec.notFoundMessage = "Job \(jobID) not found."
        return try await call(BooksTrackContract.JobStatus.self, spec).value
    }

    /// The `results` (or `books`) a v3 `completed` event's data carries.
    static func v3Results(in data: String) -> JSONValue? {
        guard let value = try? JSONCoding.decoder().decode(JSONValue.self, from: Data(data.utf8)) else { return nil }
        return value["results"] ?? value["books"]
    }

    static func connectionFailure(_ error: BooksTrackError) -> JobConnectionFailure {
        if error.kind == .timeout { return .timedOut }
        if let status = error.httpStatus {
            return .http(status: status, code: error.code.rawValue, retryAfter: error.retryAfter)
        }
        return .transport(error.message)
    }

    /// The watcher's payload from a status body.
    static func payload(_ s: BooksTrackContract.JobStatus) -> WatchedJobEvent {
        WatchedJobEvent(
            jobID: s.jobId,
            status: JobState(wireName: s.status.rawValue),
            progress: s.progress,
            processedCount: s.processedCount,
            totalCount: s.totalCount,
            errorCode: s.error?.code.rawValue,
            errorMessage: s.error?.message,
            retryable: s.error?.retryable
        )
    }

    /// The watcher's payload from an SSE event's data.
    static func payload(eventName: String, data: String) -> WatchedJobEvent? {
        switch JobStreamEvent.decode(eventName: eventName, data: data) {
        case .state(let p):
            return WatchedJobEvent(
                jobID: p.jobId,
                status: JobState(wireName: p.status.rawValue),
                progress: p.progress,
                processedCount: p.processedCount,
                totalCount: p.totalCount,
                errorCode: p.error?.code.rawValue,
                errorMessage: p.error?.message,
                retryable: p.error?.retryable
            )
        case .timeout(let p):
            return WatchedJobEvent(
                jobID: p.jobId,
                status: p.lastStatus.flatMap { JobState(wireName: $0.rawValue) },
                progress: p.lastProgress,
                errorCode: p.error,
                errorMessage: p.message
            )
        case .error(let p):
            return WatchedJobEvent(jobID: p.jobId, errorCode: p.error, errorMessage: p.message)
        case .unknown:
            return nil
        }
    }

    // MARK: - SSE

    /// One SSE connection: feeds body chunks to `SSEParser` and the parser's items to the machine
    /// until it decides something other than "keep reading".
    nonisolated func runStream(
        jobID: String,
        pipeline: Pipeline,
        v3Token: String?,
        lastEventID: String?,
        machine: inout JobWatchStateMachine,
        _ continuation: AsyncThrowingStream<WatchEvent, any Error>.Continuation
    ) async -> JobWatchStep {
        // v3: `/v3/jobs/{pipeline}/{id}/stream` — built from our own base URL, never from the 202's
        // `streamUrl` (production always writes https there, jobs/common.ts buildStreamUrl).
        let path =
            v3Token != nil
            ? await v3JobPath(jobID, pipeline: pipeline, suffix: "/stream")
            : ImportAccepted.defaultSSEURL(jobId: Self.pathSegment(jobID))
        let url = RequestSpec(.GET, path).url(base: configuration.baseURL)
        let masked = SecretMasking.maskURL(url)
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "text/event-stream")
        request.headers.add(name: "Cache-Control", value: "no-cache")
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        if let v3Token {
            request.headers.add(name: "Authorization", value: "Bearer \(v3Token)")
        } else if let bearer = configuration.bearerToken, !bearer.isEmpty {
            request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        }
        if let lastEventID, !lastEventID.isEmpty { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let clock = ContinuousClock()
        let start = clock.now
        var parser = SSEParser(surfacesComments: true)
        let trace = configuration.trace
        let response: HTTPClientResponse
        do {
            response = try await transport.client.execute(
                request,
                deadline: .now() + .nanoseconds(configuration.timeout.wholeNanoseconds)
            )
        } catch {
            if Task.isCancelled { return machine.userDetached() }
            let mapped = BooksTrackError.fromTransport(
                error,
                url: masked,
                host: transport.host,
                timeout: configuration.timeout
            )
            trace?(
                TraceEvent(
                    phase: .streamClosed,
                    requestID: 0,
                    method: "GET",
                    url: masked,
                    duration: clock.now - start,
                    error: mapped.message
                )
            )
            return machine.connectionFailed(Self.connectionFailure(mapped))
        }
        let status = Int(response.status.code)
        let contentType = response.headers.first(name: "content-type")?.lowercased() ?? ""
        guard status == 200, contentType.hasPrefix("text/event-stream") else {
            let body = (try? await response.body.collect(upTo: 64 * 1024)) ?? ByteBuffer()
            let error: BooksTrackError =
                status == 200
                ? BooksTrackError(
                    code: .invalidResponse,
                    kind: .decoding,
                    message: "The progress stream is not an event stream (\(contentType)).",
                    httpStatus: 200
                )
                : .fromResponse(status: status, headers: response.headers, body: body, url: masked)
            trace?(
                TraceEvent(
                    phase: .streamClosed,
                    requestID: 0,
                    method: "GET",
                    url: masked,
                    status: status,
                    duration: clock.now - start,
                    error: error.message
                )
            )
            if status == 200 { return machine.connectionFailed(.http(status: 415, code: "NOT_EVENT_STREAM")) }
            return machine.connectionFailed(Self.connectionFailure(error))
        }
        trace?(
            TraceEvent(
                phase: .streamOpened,
                requestID: 0,
                method: "GET",
                url: masked,
                status: status,
                duration: clock.now - start,
                requestHeaders: SecretMasking.maskHeaders(
                    request.headers.map { HeaderField(name: $0.name, value: $0.value) }
                ),
                responseHeaders: SecretMasking.maskHeaders(
                    response.headers.map { HeaderField(name: $0.name, value: $0.value) }
                )
            )
        )
        _ = machine.streamOpened()

        // The reader runs in a child task; a watchdog ends it after `streamIdleTimeout` of silence.
        let (chunks, chunkSink) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        let activity = ActivityClock()
        let idleLimit = configuration.streamIdleTimeout
        let reader = Task {
            do {
                for try await chunk in response.body {
                    activity.touch()
                    chunkSink.yield(chunk)
                }
                chunkSink.finish()
            } catch {
                chunkSink.finish(throwing: error)
            }
        }
        let watchdog = Task {
            while !Task.isCancelled {
                let idle = activity.idle
                if idle >= idleLimit {
                    chunkSink.finish(throwing: StreamIdleTimeout())
                    reader.cancel()
                    return
                }
                try? await Task.sleep(for: idleLimit - idle)
            }
        }
        defer {
            reader.cancel()
            watchdog.cancel()
        }
        do {
            for try await chunk in chunks {
                for item in parser.feedItems(chunk.readableBytesView) {
                    var payload: WatchedJobEvent?
                    if case .event(let event) = item {
                        payload = Self.payload(eventName: event.type, data: event.data)
                        if v3Token != nil, event.type == "completed", let value = Self.v3Results(in: event.data) {
                            let requested = await v3Requested[jobID]
                            await keep(
                                results: JobResults(v3: value, pipeline: pipeline, requested: requested),
                                of: jobID
                            )
                        }
                        // v3 opens every stream with a `progress` event carrying the job's state, even a
                        // finished job's; its `completed`/`failed` event follows at once with the results
                        // or the error: a `progress` event never ends the watch.
                        if v3Token != nil, event.type == "progress", let state = payload?.status,
                            [.completed, .failed, .canceled].contains(state)
                        {
                            payload?.status = .processing
                        }
                        trace?(
                            TraceEvent(
                                phase: .streamEvent,
                                requestID: 0,
                                method: "SSE",
                                url: masked,
                                duration: clock.now - start,
                                responseBody: SecretMasking.maskText(
                                    "id: \(event.lastEventID)\nevent: \(event.type)\ndata: \(event.data)"
                                )
                            )
                        )
                    }
                    let step = machine.streamItem(item, payload: payload)
                    if step.action != .none { return step }
                    for update in step.progress { continuation.yield(.progress(update)) }
                }
            }
            parser.finish()
            trace?(
                TraceEvent(phase: .streamClosed, requestID: 0, method: "GET", url: masked, duration: clock.now - start)
            )
            return machine.connectionClosed(parserLastEventID: parser.lastEventID)
        } catch {
            if Task.isCancelled { return machine.userDetached() }
            let failure: JobConnectionFailure =
                error is StreamIdleTimeout
                ? .timedOut
                : .transport(
                    BooksTrackError.fromTransport(error, url: masked, host: transport.host, timeout: nil).message
                )
            trace?(
                TraceEvent(
                    phase: .streamClosed,
                    requestID: 0,
                    method: "GET",
                    url: masked,
                    duration: clock.now - start,
                    error: failure.summary
                )
            )
            return machine.connectionFailed(failure, parserLastEventID: parser.lastEventID)
        }
    }
}
