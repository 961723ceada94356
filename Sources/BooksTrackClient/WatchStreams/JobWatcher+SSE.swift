import AsyncHTTPClient
import BooksTrackContract
import Foundation
import NIOCore
import NIOHTTP1

extension JobWatcher {
    /// One SSE connection: feeds body chunks to `SSEParser` and the parser's items to the machine
    /// until it decides something other than "keep reading".
    func runStream(
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
            ? await client.v3JobPath(jobID, pipeline: pipeline, suffix: "/stream")
            : ImportAccepted.defaultSSEURL(jobId: RequestSpec.encode(jobID))
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
            return machine.connectionFailed(JobWatchDecoding.connectionFailure(mapped))
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
            return machine.connectionFailed(JobWatchDecoding.connectionFailure(error))
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
                        payload = JobWatchDecoding.payload(eventName: event.type, data: event.data)
                        if v3Token != nil, event.type == "completed",
                            let value = JobWatchDecoding.v3Results(in: event.data)
                        {
                            await client.keep(v3Results: value, of: jobID, pipeline: pipeline)
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
