import BooksTrackContract
import BooksTrackServer
import Foundation
import NIOHTTP1
import Testing

@Suite("Batch enrichment routes", .timeLimit(.minutes(TestTime.minutes(10))))
struct BatchRoutesTests {
    func post(_ server: JobTestServer, _ json: String, path: String = "/api/batch-enrich") async throws -> HTTPResult {
        try await httpRequest(
            .POST,
            server.base + path,
            headers: [("Content-Type", "application/json")],
            body: Array(json.utf8)
        )
    }

    @Test(arguments: ["/api/batch-enrich", "/v1/enrichment/batch"])
    func booksFormEndToEnd(_ path: String) async throws {
        try await withJobServer { server in
            let body =
                #"{"jobId":"client-job-1","books":[{"title":"The Hobbit","author":"Tolkien"},{"title":"Dune","author":"Frank Herbert"},{"title":"","isbn":"9780451524935"},{"title":"X","isbn":"123"}]}"#
            let response = try await post(server, body, path: path)
            #expect(response.status == 202)
            let accepted = try JSONCoding.decoder().decode(
                BatchJobAccepted.self,
                from: JSONEncoder().encode(try response.data())
            )
            #expect(accepted.jobId == "client-job-1")
            #expect(accepted.totalCount == 4 && accepted.processedCount == 0)
            #expect(accepted.token == accepted.authToken && accepted.authToken.count == 64)
            #expect(accepted.sseUrl == "/api/v2/imports/client-job-1/stream")
            #expect(accepted.statusUrl == "/api/v2/imports/client-job-1")

            let record = try await waitForEnd(server.engine, "client-job-1")
            #expect(record.status == .completed && record.successCount == 2 && record.failureCount == 2)

            let results = try await httpRequest(.GET, server.base + "/v1/jobs/client-job-1/results")
            #expect(results.status == 200)
            let items = try JSONCoding.decoder().decode(
                [BatchItemResult].self,
                from: JSONEncoder().encode(try results.data())
            )
            #expect(items.map(\.success) == [true, false, true, false])
            #expect(items[0].title == "The Hobbit" && items[0].author == "Tolkien" && items[0].isbn == "9780618260300")
            #expect(items[0].enriched?.work.title == "The Hobbit")
            #expect(items[0].enriched?.edition.isbns.contains("9780618260300") == true)
            #expect(items[0].enriched?.authors.map(\.name) == ["J.R.R. Tolkien"])
            #expect(items[1].error == "no catalog match for title 'Dune' by 'Frank Herbert'")
            #expect(items[1].enriched == nil)
            #expect(items[2].title == "1984")
            #expect(
                items[3].error
                    == "invalid ISBN '123': ISBN must have 10 or 13 digits, got 3; no catalog match for title 'X'"
            )

            // Status and SSE routes serve batch jobs too.
            let status = try await httpRequest(.GET, server.base + "/api/v2/imports/client-job-1")
            #expect(try status.data()["pipeline"] == "batch_enrichment")
            let (_, _, capture) = try await readSSE(server, "client-job-1")
            #expect(sseBlocks(capture.text).last?.event == "completed")

            // Retrying with the same jobId returns the same job (same token), and starts nothing new.
            let retry = try await post(server, body, path: path)
            #expect(retry.status == 202)
            #expect(try retry.data()["authToken"]?.stringValue == accepted.authToken)
            #expect(try retry.data()["processedCount"] == 4)
            #expect(await server.engine.events(of: "client-job-1").count == record.totalCount + 2)
        }
    }

    @Test func barcodesForm() async throws {
        try await withJobServer { server in
            let response = try await post(server, #"{"barcodes":["0439023483","9780000000002","not-an-isbn"]}"#)
            #expect(response.status == 202)
            let id = try #require(try response.data()["jobId"]?.stringValue)
            _ = try await waitForEnd(server.engine, id)
            let items = try JSONCoding.decoder().decode(
                [BatchItemResult].self,
                from: JSONEncoder().encode(try await httpRequest(.GET, server.base + "/v1/jobs/\(id)/results").data())
            )
            #expect(items.map(\.success) == [true, false, false])
            #expect(items[0].title == "The Hunger Games (The Hunger Games, #1)" && items[0].isbn == "0439023483")
            #expect(items[1].error == "ISBN 9780000000002 is not in the catalog")
            #expect(items[2].title == "not-an-isbn")
            #expect(items[2].error == "invalid ISBN 'not-an-isbn': ISBN contains an invalid character 'n'")
        }
    }

    @Test func badBodies() async throws {
        try await withJobServer { server in
            let cases: [(String, Int, String)] = [
                (#"{"books":[],"jobId":"a"}"#, 400, "EMPTY_BATCH"),
                (#"{"barcodes":[]}"#, 400, "EMPTY_BATCH"),
                (
                    "{\"barcodes\":[" + Array(repeating: "\"0439023483\"", count: 101).joined(separator: ",") + "]}",
                    400, "BATCH_TOO_LARGE"
                ),
                ("{not json", 400, "INVALID_REQUEST"),
                ("", 400, "INVALID_REQUEST"),
                ("[]", 400, "INVALID_REQUEST"),
                (#"{"jobId":"x"}"#, 400, "INVALID_REQUEST"),
                (#"{"books":[{"author":"no title"}],"jobId":"y"}"#, 400, "INVALID_REQUEST"),
                (#"{"books":[{"title":"a"}],"jobId":"bad id with spaces"}"#, 400, "INVALID_REQUEST"),
            ]
            for (body, status, code) in cases {
                let response = try await post(server, body)
                #expect(response.status == status, "\(body)")
                #expect(try response.errorCode() == code, "\(body)")
            }
            let hundred =
                "{\"barcodes\":[" + Array(repeating: "\"0439023483\"", count: 100).joined(separator: ",") + "]}"
            #expect(try await post(server, hundred).status == 202)
        }
    }
}
