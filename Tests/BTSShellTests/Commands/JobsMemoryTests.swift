import BooksTrackContract
import BooksTrackServer
import Foundation
import Logging
import Testing

@testable import BTSShell

/// `jobs` asks unfinished jobs for their state, and remembers jobs across restarts per server
/// (issue 15): a second session with the same XDG state directory lists the first one's job.
@Suite("jobs: fresh states and memory")
struct JobsMemoryTests {
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
                try harness.write("lib.csv", "Title,Author,ISBN\nThe Hunger Games,Suzanne Collins,9780439023481\nCatching Fire,Suzanne Collins\n")
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
            var info = stat()
            #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode 0600: tokens are in it")
            // A new session on the same server remembers it, `last` included.
            try await withShell(backend: api, environment: environment) { harness in
                #expect(await harness.run("jobs") == 0, "\(harness.err)")
                let jobs = await harness.lastResult()["jobs"]?.arrayValue ?? []
                #expect(jobs.count == 1)
                #expect(jobs.first?["jobId"] == .string(jobID))
                #expect(jobs.first?["status"] == .string("completed"))
                #expect(await harness.run("results last") == 0, "\(harness.err)")
                #expect(await harness.lastResult()["errors"]?.arrayValue?.first?["error"] == .string("the row has 2 fields but the header has 3"))
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
