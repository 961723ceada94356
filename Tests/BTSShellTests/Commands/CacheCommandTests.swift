import BTSShell
import BooksTrackContract
import BooksTrackServer
import Foundation
import Logging
import Testing

/// `cache`, `--no-cache`, `set offline`, remembered jobs as a first command and `similar
/// --library`'s spending note, in one process (CacheProcessTests drive the real binary).
@Suite("cache command and memory")
struct CacheCommandTests {
    /// Runs `body` with the real local server on a free port (its port), always shutting it down.
    static func withLocalServer(_ body: (Int) async throws -> Void) async throws {
        var logger = Logger(label: "cache-command")
        logger.logLevel = .critical
        var config = ServerConfiguration()
        config.port = 0
        let server = try await LocalServer.start(config, catalog: try SharedShellCatalog.get(), logger: logger)
        do {
            try await body(server.port)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test func theEmbeddedBackendIsNotCachedAndCacheSaysSo() async throws {
        try await withShell { harness in
            #expect(await harness.run("cache show") == 0, "\(harness.err)")
            #expect(await harness.lastResult()["cached"] == .bool(false))
            #expect(await harness.run("cache entries") == 0, "\(harness.err)")
            #expect(await harness.run("cache clear") == 0, "\(harness.err)")
            #expect(await harness.lastResult()["removed"] == .number(0))
            // --no-cache is accepted by every command; `set offline` takes cache|never.
            #expect(await harness.run("search isbn 9780439023481 --no-cache") == 0, "\(harness.err)")
            #expect(await harness.run("set offline never") == 0, "\(harness.err)")
            #expect(await harness.run("set offline sometimes") == 2)
        }
    }

    @Test func aRemoteServersAnswersAreCachedAndShown() async throws {
        try await Self.withLocalServer { port in
            try await withShell(backend: BackendRequest(apiURL: "http://127.0.0.1:\(port)")) { harness in
                #expect(
                    await harness.run("search isbn 9780439023481; search title dune --limit 2") == 0,
                    "\(harness.err)"
                )
                #expect(await harness.run("cache show") == 0, "\(harness.err)")
                let shown = await harness.lastResult()
                #expect(shown["cached"] == .bool(true))
                #expect(shown["entries"]?.intValue == 2, "\(shown)")
                #expect((shown["bytes"]?.intValue ?? 0) > 0)
                #expect(await harness.run("cache entries") == 0, "\(harness.err)")
                let keys =
                    await harness.lastResult()["entries"]?.arrayValue?.compactMap { $0["key"]?.stringValue } ?? []
                #expect(
                    keys.contains {
                        $0.hasPrefix("GET /v1/search/title?q=dune") || $0.hasPrefix("GET /v3/books/search?q=dune")
                    },
                    "\(keys)"
                )
                #expect(await harness.run("cache clear") == 0, "\(harness.err)")
                #expect(await harness.lastResult()["removed"]?.intValue == 2)
            }
        }
    }

    @Test func cancelOfAnUnknownJobSaysTheJobIsUnknown() async throws {
        try await Self.withLocalServer { port in
            try await withShell(backend: BackendRequest(apiURL: "http://127.0.0.1:\(port)")) { harness in
                let status = await harness.run("cancel no-such-job")
                #expect(status == 1)
                #expect(harness.err.contains("unknown"), "\(harness.err)")
                #expect(!harness.err.contains("token"), "\(harness.err)")
            }
        }
    }

    @Test func jobCommandsFindRememberedJobsAsTheFirstCommand() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("bts-jobs-first-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["XDG_STATE_HOME": state.path]
        try await Self.withLocalServer { port in
            let api = BackendRequest(apiURL: "http://127.0.0.1:\(port)")
            var jobID = ""
            try await withShell(backend: api, environment: environment) { harness in
                try harness.write("lib.csv", "Title,Author,ISBN\nThe Hunger Games,Suzanne Collins,9780439023481\n")
                #expect(await harness.run("import lib.csv") == 0, "\(harness.err)")
                jobID = await harness.lastResult()["jobId"]?.stringValue ?? ""
            }
            #expect(!jobID.isEmpty)
            for script in ["status last", "watch last", "results last", "status \(jobID)"] {
                try await withShell(backend: api, environment: environment) { harness in
                    #expect(await harness.run(script) == 0, "\(script): \(harness.err)")
                    if script.hasPrefix("status") {
                        #expect(await harness.lastResult()["jobId"] == .string(jobID), "\(script)")
                    }
                }
            }
        }
    }

    @Test func similarLibrarySaysWhatItWillSpend() async throws {
        try await withShell { harness in
            #expect(await harness.run("search title harry potter --limit 12; save") == 0, "\(harness.err)")
            #expect(await harness.run("similar --library") == 0, "\(harness.err)")
            #expect(harness.err.contains("similar --library: up to 10 similar requests"), "\(harness.err)")
            #expect(harness.err.contains("cached answers spend none"))
        }
    }
}
