import BooksTrackContract
import BooksTrackServer
import Foundation
import NIOHTTP1
import Testing

@Suite("Job cancel", .timeLimit(.minutes(TestTime.minutes(10))))
struct CancelRoutesTests {
    static let slowCSV = "Title,Author\n" + String(repeating: "The Hobbit,Tolkien\n", count: 100)

    @Test(arguments: ["/v1/jobs/ID", "/api/v2/jobs/ID/cancel"])
    func cancelWithGoodBadAndMissingTokens(_ template: String) async throws {
        // Held open: the job is still running when the good token cancels it.
        try await withJobServer(configure: { $0.itemsPerSecond = 0.001 }) { server in
            let accepted = try await uploadCSV(server, Self.slowCSV)
            let data = try accepted.data()
            let id = try #require(data["jobId"]?.stringValue)
            let token = try #require(data["authToken"]?.stringValue)
            let url = server.base + template.replacingOccurrences(of: "ID", with: id)

            let missing = try await httpRequest(.DELETE, url)
            #expect(missing.status == 401)
            #expect(try missing.errorCode() == "UNAUTHORIZED")
            #expect(missing.header("WWW-Authenticate") == "Bearer")
            let wrong = try await httpRequest(.DELETE, url, headers: [("Authorization", "Bearer nope")])
            #expect(wrong.status == 401)
            #expect(try wrong.errorCode() == "UNAUTHORIZED")
            let basic = try await httpRequest(.DELETE, url, headers: [("Authorization", "Basic \(token)")])
            #expect(basic.status == 401)
            #expect(await server.engine.record(of: id)?.status.isTerminal == false)

            let good = try await httpRequest(.DELETE, url, headers: [("Authorization", "Bearer \(token)")])
            #expect(good.status == 200)
            let body = try JSONCoding.decoder().decode(CancelResponse.self, from: JSONEncoder().encode(try good.data()))
            #expect(body.jobId == id && body.status == .canceled)
            #expect(body.cleanup["workerStopped"] == .bool(true))
            #expect(body.cleanup["partialResultsKept"] == .bool(true))

            let status = try await httpRequest(.GET, server.base + "/api/v2/imports/\(id)")
            #expect(try status.data()["status"] == "canceled")
            #expect(try status.data()["completedTime"] != nil)
            let processed = try #require(try status.data()["processedCount"]?.intValue)
            #expect(processed < 100)

            // Idempotent: cancelling again answers 200 with the final status.
            let again = try await httpRequest(.DELETE, url, headers: [("Authorization", "bearer \(token)")])
            #expect(again.status == 200)
            #expect(try again.data()["status"] == "canceled")
            #expect(try again.data()["cleanup"]?["alreadyFinished"] == .bool(true))

            // Partial results are kept.
            let results = try await httpRequest(.GET, server.base + "/v1/jobs/\(id)/results")
            #expect(results.status == 200)
            let partial = try JSONCoding.decoder().decode(
                ImportResults.self,
                from: JSONEncoder().encode(try results.data())
            )
            #expect(partial.booksCreated + partial.duplicatesSkipped == processed)

            // The log ends with exactly one canceled event, and the engine stays quiet afterwards.
            let events = await server.engine.events(of: id)
            #expect(events.last?.status == .canceled)
            #expect(events.filter { $0.status.isTerminal }.count == 1)
        }
    }

    @Test func cancellingACompletedJobReportsCompleted() async throws {
        try await withJobServer { server in
            let accepted = try await uploadCSV(server, "Title,Author\nThe Hobbit,Tolkien\n")
            let data = try accepted.data()
            let id = try #require(data["jobId"]?.stringValue)
            let token = try #require(data["authToken"]?.stringValue)
            _ = try await waitForEnd(server.engine, id)
            let response = try await httpRequest(
                .DELETE,
                server.base + "/v1/jobs/\(id)",
                headers: [("Authorization", "Bearer \(token)")]
            )
            #expect(response.status == 200)
            #expect(try response.data()["status"] == "completed")
            #expect(await server.engine.record(of: id)?.status == .completed)
        }
    }

    @Test func cancellingAnUnknownJobIs404() async throws {
        try await withJobServer { server in
            let response = try await httpRequest(
                .DELETE,
                server.base + "/v1/jobs/unknown",
                headers: [("Authorization", "Bearer x")]
            )
            #expect(response.status == 404)
            #expect(try response.errorCode() == "NOT_FOUND")
        }
    }

    @Test func tokenRefreshRoute() async throws {
        let clock = ManualJobClock()
        try await withJobServer(clock: clock, configure: { $0.itemsPerSecond = 0.01 }) { server in
            let accepted = try await uploadCSV(server, Self.slowCSV)
            let id = try #require(try accepted.data()["jobId"]?.stringValue)
            let token = try #require(try accepted.data()["authToken"]?.stringValue)
            func refresh(_ body: String) async throws -> HTTPResult {
                try await httpRequest(
                    .POST,
                    server.base + "/api/token/refresh",
                    headers: [("Content-Type", "application/json")],
                    body: Array(body.utf8)
                )
            }
            let early = try await refresh(#"{"jobId":"\#(id)","oldToken":"\#(token)"}"#)
            #expect(early.status == 400)
            #expect(try early.errorCode() == "INVALID_REQUEST")
            clock.advance(by: .seconds(6000))
            let wrong = try await refresh(#"{"jobId":"\#(id)","oldToken":"nope"}"#)
            #expect(wrong.status == 401)
            let missing = try await refresh(#"{"jobId":"\#(id)"}"#)
            #expect(missing.status == 400)
            #expect(try missing.errorCode() == "MISSING_PARAMETER")
            let ok = try await refresh(#"{"jobId":"\#(id)","oldToken":"\#(token)"}"#)
            #expect(ok.status == 200)
            let body = try JSONCoding.decoder().decode(
                TokenRefreshResponse.self,
                from: JSONEncoder().encode(try ok.data())
            )
            #expect(body.jobId == id && body.expiresIn == 7200 && body.token != token)
            let cancelOld = try await httpRequest(
                .DELETE,
                server.base + "/v1/jobs/\(id)",
                headers: [("Authorization", "Bearer \(token)")]
            )
            #expect(cancelOld.status == 401)
            let cancelNew = try await httpRequest(
                .DELETE,
                server.base + "/v1/jobs/\(id)",
                headers: [("Authorization", "Bearer \(body.token)")]
            )
            #expect(cancelNew.status == 200)
        }
    }
}
