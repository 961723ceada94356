import BooksTrackContract
import BooksTrackServer
import Foundation
import Logging
import TestSupport
import Testing

@testable import BTSShell

/// Against a server speaking API v3 as production does, the job commands tell the truth: a canceled
/// job's error is a sentence in `status`, `results` says the job was canceled (the server's own
/// detail said "Current status: failed"), and a total the server reports as 0 does not replace the
/// one this session knows.
@Suite("v3 jobs: states, totals and errors")
struct V3JobTruthTests {
    @Test func aCanceledJobIsShownAsCanceledWithItsReasonAndNoResults() async throws {
        var logger = Logger(label: "v3-job-truth")
        logger.logLevel = .critical
        var config = ServerConfiguration()
        config.port = 0
        config.dialect = .production
        config.jobs.itemPacing = .seconds(600)
        let server = try await LocalServer.start(config, catalog: try SharedShellCatalog.get(), logger: logger)
        let state = try makeTempDirectory("v3-job-truth")
        defer { try? FileManager.default.removeItem(at: state) }
        do {
            try await withShell(
                backend: BackendRequest(apiURL: "http://127.0.0.1:\(server.port)"),
                environment: ["XDG_STATE_HOME": state.path]
            ) { harness in
                #expect(await harness.run("enrich 9780439023481 9780439023498") == 0, "\(harness.err)")
                #expect(await harness.run("results last") == 1)
                #expect(harness.err.contains("is still processing (0 of 2): 'watch"), "\(harness.err)")
                #expect(await harness.run("cancel last") == 0, "\(harness.err)")
                #expect(await harness.run("status last") == 0, "\(harness.err)")
                #expect(await harness.lastResult()["status"] == .string("canceled"))
                #expect(await harness.lastResult()["reason"]?.stringValue?.hasSuffix("(CANCELED)") == true)
                #expect(await harness.run("results last") == 1)
                #expect(harness.err.contains("was canceled: it has no results"), "\(harness.err)")
                #expect(!harness.err.contains("Current status: failed"), "\(harness.err)")
                #expect(await harness.run("jobs") == 0, "\(harness.err)")
                let job = await harness.lastResult()["jobs"]?.arrayValue?.first
                #expect(job?["status"] == .string("canceled"))
                #expect(job?["totalCount"] == .number(2))
            }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    /// Production's v3 status says `totalCount: 0` when its job state lacks the count.
    @Test func aReportedTotalOfZeroKeepsTheKnownTotal() {
        var jobs = SessionJobs()
        jobs.add(
            SessionJob(
                id: "a",
                pipeline: .batchEnrichment,
                token: nil,
                startedAt: Date(),
                totalCount: 2,
                status: .initialized,
                source: "2 ISBNs"
            )
        )
        jobs.update("a", status: .state(.processing), processed: 1, total: 0)
        #expect(jobs.all.first?.totalCount == 2)
        #expect(jobs.all.first?.processedCount == 1)
        jobs.update("a", total: 3)
        #expect(jobs.all.first?.totalCount == 3)
        // A job of which nothing was known takes what the server says, 0 included.
        jobs.add(
            SessionJob(
                id: "b",
                pipeline: .csvImport,
                token: nil,
                startedAt: Date(),
                status: .initialized,
                source: "x.csv"
            )
        )
        jobs.update("b", total: 0)
        #expect(jobs.all.last?.totalCount == 0)
    }
}
