import BooksTrackClient
import BooksTrackContract
import Testing

/// What the watcher's channels carry, read into the machine's inputs without a server.
@Suite("JobWatchDecoding")
struct JobWatchDecodingTests {
    @Test func sseStateEventBecomesPayload() {
        let payload = JobWatchDecoding.payload(
            eventName: "processing",
            data: #"{"jobId":"j1","status":"processing","progress":0.5,"processedCount":5,"totalCount":10}"#
        )
        #expect(
            payload
                == WatchedJobEvent(jobID: "j1", status: .processing, progress: 0.5, processedCount: 5, totalCount: 10)
        )
    }

    @Test func sseEventWithoutStatusTakesTheEventName() {
        let payload = JobWatchDecoding.payload(eventName: "completed", data: #"{"jobId":"j1","processedCount":3}"#)
        #expect(payload?.status == .completed)
        #expect(payload?.progress == 1)
        #expect(payload?.processedCount == 3)
    }

    @Test func sseTimeoutAndErrorEvents() {
        let timeout = JobWatchDecoding.payload(
            eventName: "timeout",
            data:
                #"{"error":"stream_timeout","message":"Stream timed out","jobId":"j1","lastStatus":"processing","lastProgress":0.25}"#
        )
        #expect(timeout?.status == .processing)
        #expect(timeout?.progress == 0.25)
        #expect(timeout?.errorCode == "stream_timeout")
        let error = JobWatchDecoding.payload(
            eventName: "error",
            data: #"{"error":"job_not_found","message":"No such job","jobId":"j2"}"#
        )
        #expect(error == WatchedJobEvent(jobID: "j2", errorCode: "job_not_found", errorMessage: "No such job"))
    }

    @Test func unknownOrGarbledSSEEventsCarryNothing() {
        #expect(JobWatchDecoding.payload(eventName: "heartbeat", data: "{}") == nil)
        #expect(JobWatchDecoding.payload(eventName: "processing", data: "not json") == nil)
    }

    @Test func statusBodyBecomesPayload() {
        let body = BooksTrackContract.JobStatus(
            jobId: "j1",
            status: .processing,
            progress: 0.4,
            processedCount: 4,
            totalCount: 10,
            pipeline: .csvImport,
            startTime: 0
        )
        #expect(
            JobWatchDecoding.payload(body)
                == WatchedJobEvent(jobID: "j1", status: .processing, progress: 0.4, processedCount: 4, totalCount: 10)
        )
    }

    @Test func v3CompletedEventResults() {
        #expect(JobWatchDecoding.v3Results(in: #"{"results":[{"isbn":"1"}]}"#)?.arrayValue?.count == 1)
        #expect(JobWatchDecoding.v3Results(in: #"{"books":[]}"#)?.arrayValue?.isEmpty == true)
        #expect(JobWatchDecoding.v3Results(in: #"{"status":"completed"}"#) == nil)
        #expect(JobWatchDecoding.v3Results(in: "garbage") == nil)
    }

    @Test func failedRequestsBecomeConnectionFailures() {
        let timeout = BooksTrackError(code: .providerTimeout, kind: .timeout, message: "Timed out.")
        #expect(JobWatchDecoding.connectionFailure(timeout) == .timedOut)
        let limited = BooksTrackError(
            code: .rateLimitExceeded,
            kind: .api,
            message: "Too many requests.",
            httpStatus: 429,
            retryAfter: .seconds(7)
        )
        #expect(
            JobWatchDecoding.connectionFailure(limited)
                == .http(status: 429, code: ErrorCode.rateLimitExceeded.rawValue, retryAfter: .seconds(7))
        )
        let refused = BooksTrackError(code: .networkError, kind: .connection, message: "Connection refused.")
        #expect(JobWatchDecoding.connectionFailure(refused) == .transport("Connection refused."))
    }

    @Test func socketMessages() {
        let started = JobWatchDecoding.socketMessage(
            #"{"type":"job_started","jobId":"b1","pipeline":"batch_enrichment","timestamp":2,"payload":{"totalCount":3}}"#
        )
        #expect(started.kind == .jobStarted)
        #expect(started.payload == WatchedJobEvent(jobID: "b1", status: .processing, progress: 0, totalCount: 3))
        let progress = JobWatchDecoding.socketMessage(
            #"{"type":"job_progress","jobId":"b1","pipeline":"batch_enrichment","timestamp":4,"payload":{"progress":0.5,"status":"processing","processedCount":2}}"#
        )
        #expect(progress.kind == .jobProgress)
        #expect(progress.payload == WatchedJobEvent(jobID: "b1", status: .processing, progress: 0.5, processedCount: 2))
        let complete = JobWatchDecoding.socketMessage(
            #"{"type":"job_complete","jobId":"b1","pipeline":"batch_enrichment","timestamp":5,"payload":{"pipeline":"batch_enrichment","summary":{"totalProcessed":3,"successCount":2,"failureCount":1,"duration":10},"expiresAt":"x"}}"#
        )
        #expect(complete.kind == .jobComplete)
        #expect(complete.payload?.status == .completed)
        #expect(complete.payload?.totalCount == 3)
        #expect(
            JobWatchDecoding.socketMessage(#"{"type":"ping","jobId":"b1","timestamp":3,"payload":{}}"#).kind == .ping
        )
    }

    @Test func unreadableSocketMessagesKeepTheirType() {
        #expect(JobWatchDecoding.socketMessage(#"{"type":"surprise","odd":true}"#).kind == .other("surprise"))
        #expect(JobWatchDecoding.socketMessage("not json").kind == .other("unknown"))
        #expect(JobWatchDecoding.socketMessage("not json").payload == nil)
    }
}
