import BooksTrackContract
import Foundation
import TestSupport
import Testing

/// v3's bodies (`Fixtures/source/v3/SOURCES.md` names the file and commit of each), through the
/// tolerant decoding path.
@Suite(.onWorkThreads) struct V3WireDecodingTests {
    static func body(_ name: String) throws -> Data { try fixture("source/v3/\(name)") }

    @Test func problemDetailsKeepDetailFieldErrorsAndRetryable() throws {
        let result = ResponseDecoding.decode(
            JSONValue.self,
            from: try Self.body("problem-invalid-isbn.json"),
            status: 400
        )
        let info = try #require(result.errorInfo)
        #expect(info.code == .invalidRequest)
        #expect(info.isProblemDetails)
        #expect(info.retryable == false)
        #expect(
            info.fieldErrors == [
                FieldError(field: "isbn", message: "Must be ISBN-10 or ISBN-13", code: "invalid_string")
            ]
        )
        #expect(info.problemSentence == "Validation failed: isbn: Must be ISBN-10 or ISBN-13")
        let circuit = try #require(
            ResponseDecoding.decode(JSONValue.self, from: try Self.body("problem-circuit-open.json"), status: 503)
                .errorInfo
        )
        #expect(circuit.code == .circuitOpen)
        #expect(circuit.retryAfterMs == 60_000)
        #expect(circuit.retryable)
        let sync = try #require(
            ResponseDecoding.decode(JSONValue.self, from: try Self.body("problem-sync-limit.json"), status: 400)
                .errorInfo
        )
        #expect(sync.problemSentence?.contains("Sync mode limited to 50 ISBNs") == true)
    }

    /// A problem body is recognised by a numeric `status` with `title` or `type`; a plain
    /// `{message, code}` error on an error status is not one.
    @Test func onlyProblemShapedBodiesAreProblems() throws {
        let plain = Data(#"{"message":"nope","code":"INTERNAL_ERROR"}"#.utf8)
        let info = try #require(ResponseDecoding.decode(JSONValue.self, from: plain, status: 500).errorInfo)
        #expect(!info.isProblemDetails)
        #expect(info.problemSentence == nil)
    }

    @Test func v3JobStatusNamesItsPipelineTypeAndCanceledIsCanceled() throws {
        let result = ResponseDecoding.decode(JobStatus.self, from: try Self.body("job-canceled.json"), status: 200)
        let status = try #require(result.value)
        #expect(status.pipeline == .batchEnrichment)
        #expect(status.status == .canceled)
        #expect(status.processedCount == 24)
        #expect(status.startTime > 0)
        let cancel = try #require(
            ResponseDecoding.decode(CancelResponse.self, from: try Self.body("job-canceled.json"), status: 200).value
        )
        #expect(cancel.status == .canceled)
        #expect(cancel.message == "Job canceled by user")
    }

    @Test func streamEventsWithNestedErrors() {
        let failed = JobStreamEvent.decode(
            eventName: "failed",
            data:
                #"{"jobId":"j","error":{"code":"CANCELED","message":"Job canceled by user"},"timestamp":"2026-11-25T20:00:00Z"}"#
        )
        guard case .state(let p) = failed else {
            Issue.record("\(failed)")
            return
        }
        #expect(p.status == .canceled)
        let timeout = JobStreamEvent.decode(
            eventName: "timeout",
            data:
                #"{"jobId":"j","error":{"code":"STREAM_TIMEOUT","message":"No progress for 5 minutes.","retryable":true},"timestamp":"t"}"#
        )
        guard case .timeout(let t) = timeout else {
            Issue.record("\(timeout)")
            return
        }
        #expect(t.error == "STREAM_TIMEOUT")
        #expect(t.message.hasPrefix("No progress"))
        let error = JobStreamEvent.decode(
            eventName: "error",
            data: #"{"jobId":"j","error":{"code":"JOB_NOT_FOUND","message":"Job not found or not initialized"}}"#
        )
        guard case .error(let e) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(e.error == StreamErrorPayload.jobNotFound)
        let completed = JobStreamEvent.decode(
            eventName: "completed",
            data: #"{"jobId":"j","status":"completed","results":[{"isbn":"9780439023481","title":"T","authors":[]}]}"#
        )
        guard case .state(let c) = completed else {
            Issue.record("\(completed)")
            return
        }
        #expect(c.results?.arrayValue?.count == 1)
        #expect(c.progress == 1)
    }

    /// The seeds' integration plan's `EnrichedBookDTO {work, edition, authors}` as a single enrichment.
    @Test func singleEnrichReadsTheSeedsDTO() throws {
        let body = Data(
            #"""
            {"success":true,"data":{"work":{"title":"Dune","subjectTags":["science fiction"]},"edition":{"isbn":"9780441172719","isbns":["9780441172719"],"publisher":"Ace","pageCount":604},"authors":[{"name":"Frank Herbert"}]},"metadata":{"timestamp":"t"}}
            """#.utf8
        )
        let book = try #require(ResponseDecoding.decode(EnrichedBook.self, from: body, status: 200).value)
        #expect(book.title == "Dune")
        #expect(book.isbn == "9780441172719")
        #expect(book.authors == ["Frank Herbert"])
        #expect(book.publisher == "Ace")
        #expect(book.categories == ["science fiction"])
    }

    @Test func v3EnrichResultAndJobAccepted() throws {
        let accepted = try #require(
            ResponseDecoding.decode(V3JobAccepted.self, from: try Self.body("job-accepted.json"), status: 202).value
        )
        #expect(accepted.token.count == 64)
        #expect(accepted.status == .initialized)
        let sync = Data(
            #"{"success":true,"data":{"books":[{"isbn":"9780439023481","title":"The Hunger Games","authors":[{"name":"Suzanne Collins"}],"provider":"alexandria","quality":95,"vectorized":false}],"requested":2,"found":1,"notFound":["9780000000002"]},"metadata":{}}"#
                .utf8
        )
        let result = try #require(ResponseDecoding.decode(V3EnrichResult.self, from: sync, status: 200).value)
        #expect(result.books.first?.authors == ["Suzanne Collins"])
        #expect(result.notFound == ["9780000000002"])
    }
}
