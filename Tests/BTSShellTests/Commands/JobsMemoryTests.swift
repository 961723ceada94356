import BooksTrackContract
import BooksTrackServer
import Foundation
import Logging
import Testing

@testable import BTSShell

/// `jobs` asks unfinished jobs for their state, and remembers jobs across restarts per server:
/// a second session with the same XDG state directory lists the first one's job.
@Suite("jobs: fresh states and memory")
struct JobsMemoryTests {
    /// 20,000 progress events wrote and synced `jobs.json` 20,000 times: progress is written at most
    /// every `progressWriteInterval`, a state change at once, and `flush()` writes what is left.
    @Test func progressWritesAreCoalescedStateChangesAreNot() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("bts-jobs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        var jobs = SessionJobs()
        jobs.store = SessionJobStore(stateDirectory: state)
        jobs.backend = "http://127.0.0.1:1"
        let file = state.appendingPathComponent("jobs.json").path
        let job = SessionJob(
            id: "job-1",
            pipeline: .csvImport,
            startedAt: Date(),
            totalCount: 20_000,
            status: .initialized,
            source: "a.csv"
        )
        jobs.add(job)
        let start = ContinuousClock.now
        jobs.update("job-1", status: .state(.processing), processed: 0, coalescing: true, now: start)
        #expect(FileManager.default.fileExists(atPath: file))
        try FileManager.default.removeItem(atPath: file)
        // Within the interval: no write, whatever the count.
        for processed in 1..<20_000 {
            jobs.update("job-1", status: .state(.processing), processed: processed, coalescing: true, now: start)
        }
        #expect(!FileManager.default.fileExists(atPath: file), "progress alone rewrote the store")
        // Past the interval: one write, with the latest progress.
        jobs.update(
            "job-1",
            status: .state(.processing),
            processed: 19_999,
            coalescing: true,
            now: start + SessionJobs.progressWriteInterval
        )
        #expect(
            SessionJobStore(stateDirectory: state).load(backend: "http://127.0.0.1:1").first?.processedCount == 19_999
        )
        try FileManager.default.removeItem(atPath: file)
        // A state change is written at once; a pending progress is written by flush().
        jobs.update(
            "job-1",
            status: .state(.processing),
            processed: 20_000,
            coalescing: true,
            now: start + SessionJobs.progressWriteInterval
        )
        #expect(!FileManager.default.fileExists(atPath: file))
        jobs.flush()
        #expect(
            SessionJobStore(stateDirectory: state).load(backend: "http://127.0.0.1:1").first?.processedCount == 20_000
        )
        try FileManager.default.removeItem(atPath: file)
        jobs.update(
            "job-1",
            status: .state(.completed),
            coalescing: true,
            now: start + SessionJobs.progressWriteInterval
        )
        #expect(
            SessionJobStore(stateDirectory: state).load(backend: "http://127.0.0.1:1").first?.status
                == .state(.completed)
        )
    }

    @Test func jobsRefreshesAndIsRememberedAcrossSessions() async throws {
        var logger = Logger(label: "jobs-memory")
        logger.logLevel = .critical
        var config = ServerConfiguration()
        config.port = 0
        config.jobs.itemPacing = .milliseconds(200)
        let server = try await LocalServer.start(config, catalog: try SharedShellCatalog.get(), logger: logger)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("bts-jobs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["XDG_STATE_HOME": state.path]
        let api = BackendRequest(apiURL: "http://127.0.0.1:\(server.port)")
        do {
            var jobID = ""
            try await withShell(backend: api, environment: environment) { harness in
                try harness.write(
                    "lib.csv",
                    "Title,Author,ISBN\nThe Hunger Games,Suzanne Collins,9780439023481\nCatching Fire,Suzanne Collins\n"
                )
                #expect(await harness.run("import lib.csv") == 0, "\(harness.err)")
                jobID = await harness.lastResult()["jobId"]?.stringValue ?? ""
                #expect(await harness.lastResult()["status"] == .string("initialized"))
                // The job finishes on the server; `jobs` asks for its state instead of showing the
                // one seen when it started (without the refresh it would say "initialized" forever).
                var status: JSONValue?
                let deadline = ContinuousClock.now + Duration.seconds(60).scaled
                repeat {
                    #expect(await harness.run("jobs") == 0, "\(harness.err)")
                    status = await harness.lastResult()["jobs"]?.arrayValue?.first?["status"]
                    if status != .string("completed") { try await Task.sleep(for: .milliseconds(100)) }
                } while status != .string("completed") && ContinuousClock.now < deadline
                #expect(status == .string("completed"))
            }
            let file = state.appendingPathComponent("bts/jobs.json")
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode.map { $0 & 0o777 } == 0o600, "mode 0600: tokens are in it")
            // A new session on the same server remembers it, `last` included.
            try await withShell(backend: api, environment: environment) { harness in
                #expect(await harness.run("jobs") == 0, "\(harness.err)")
                let jobs = await harness.lastResult()["jobs"]?.arrayValue ?? []
                #expect(jobs.count == 1)
                #expect(jobs.first?["jobId"] == .string(jobID))
                #expect(jobs.first?["status"] == .string("completed"))
                #expect(await harness.run("results last") == 0, "\(harness.err)")
                #expect(
                    await harness.lastResult()["errors"]?.arrayValue?.first?["error"]
                        == .string("the row has 2 fields but the header has 3")
                )
            }
            // The embedded backend's jobs end with its session: nothing is remembered for it.
            try await withShell(environment: environment) { harness in
                #expect(await harness.run("jobs") == 0)
                #expect(await harness.lastResult()["jobs"]?.arrayValue?.isEmpty == true)
            }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }
}
