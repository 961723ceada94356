import BooksTrackClient
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

/// The whole mission through the real `bts` binary (`.build/debug/bts`, or `BTS_BINARY`) with
/// `--api` pointed at a server of each dialect on port 0. Nothing may print a decoding error or a
/// stack trace; every command exits as a user would expect.
@Suite(.serialized) struct BTSBinaryDialectTests {
    static let binary: String? = BTSExecutable.path

    struct Run: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }

        /// No decoding error, raw library text or crash in either stream.
        var isClean: Bool {
            let all = (stdout + stderr).lowercased()
            return ![
                "decod", "invalid_response", "fatal error", "stack trace", "backtrace", "dataCorrupted".lowercased(),
                "keynotfound", "typemismatch",
            ].contains { all.contains($0) }
        }
    }

    /// Runs `bts --api URL ARGS` in a scratch HOME/XDG, with a bound on a hang.
    static func bts(
        _ args: [String],
        api: URL,
        in dir: URL,
        timeout: TimeInterval = 90,
        apiDialect: APIDialect? = nil
    ) async throws -> Run {
        let binary = try #require(binary, "no bts binary: swift build --product bts")
        var env = ProcessInfo.processInfo.environment
        for (key, sub) in [
            ("HOME", "home"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache"),
            ("XDG_DATA_HOME", "data"),
        ] {
            let path = dir.appendingPathComponent(sub)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            env[key] = path.path
        }
        try SharedCatalog.seed(cacheHome: dir.appendingPathComponent("cache"))
        env["BTS_API_URL"] = nil
        let outcome = try await ChildProcess.run(
            URL(fileURLWithPath: binary),
            ["--api", api.absoluteString, "--no-color"] + (apiDialect.map { ["--dialect", $0.rawValue] } ?? []) + args,
            environment: env,
            directory: dir,
            timeout: .seconds(timeout)
        )
        return Run(status: outcome.status, stdout: outcome.stdout, stderr: outcome.stderr)
    }

    /// `similar TITLE…` in each server and API dialect: a title search, then similar on the first
    /// book it finds with an ISBN (its own test: one more call in the test below crashed the compiler).
    @Test(
        .enabled(if: binary != nil, "no bts binary: swift build --product bts"),
        arguments: ServerDialect.allCases,
        APIDialect.allCases
    )
    func similarByTitleThroughTheBinary(_ dialect: ServerDialect, _ apiDialect: APIDialect) async throws {
        let dir = try LiveJobTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await DialectFlowTests.with(dialect, itemsPerSecond: 8) { server, _ in
            let run = try await Self.bts(
                ["-c", "similar the left hand of darkness --limit 3"],
                api: server.baseURL,
                in: dir,
                apiDialect: apiDialect
            )
            let named = run.stdout.contains(#""sourceIsbn":"9780441007318","sourceTitle":"The Left Hand of Darkness""#)
            #expect(run.status == 0 && run.isClean && named, "[\(dialect), \(apiDialect)]: \(run)")
        }
    }

    /// Every mission command against the stand-in in each server dialect, spoken in each API
    /// dialect (v1/v2 forced, and v3 — what `auto` picks on a server that offers both).
    @Test(
        .enabled(if: binary != nil, "no bts binary: swift build --product bts"),
        arguments: ServerDialect.allCases,
        APIDialect.allCases
    )
    func wholeMissionThroughTheBinary(_ dialect: ServerDialect, _ apiDialect: APIDialect) async throws {
        let dir = try LiveJobTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("goodreads.csv")
        try LiveJobTests.csv(rows: 10).write(to: csv, atomically: true, encoding: .utf8)
        let isbns = try DialectFlowTests.isbns(8)
        try await DialectFlowTests.with(dialect, itemsPerSecond: 8) { server, _ in
            let api = server.baseURL
            func expectOK(_ args: [String], _ check: (Run) -> Bool = { _ in true }) async throws {
                let run = try await Self.bts(args, api: api, in: dir, apiDialect: apiDialect)
                #expect(
                    run.status == 0 && run.isClean && check(run),
                    "bts \(args.joined(separator: " ")) [\(dialect), \(apiDialect)]: \(run)"
                )
            }
            try await expectOK(["-c", "caps"]) {
                $0.stdout.contains("semantic_search") && $0.stdout.contains("\"api\":\"\(apiDialect.description)\"")
            }
            try await expectOK(["-c", "limits"])
            try await expectOK(["-c", "search isbn \(isbns[0])"]) { $0.stdout.contains(isbns[0]) }
            try await expectOK(["-c", "search title dune --limit 3"]) { $0.stdout.contains("Dune") }
            try await expectOK(["-c", "search author 'Suzanne Collins' --limit 3"]) { $0.stdout.contains("Hunger") }
            try await expectOK(["-c", "search --title 'hunger games' --author Collins --limit 3"]) {
                $0.stdout.contains("Collins")
            }
            try await expectOK(["-c", "similar \(DialectFlowTests.dune) --limit 3"])
            try await expectOK(["-c", "semantic wizard school --limit 3"])
            try await expectOK(["-c", "recommend"])
            try await expectOK(["-c", "enrich \(DialectFlowTests.dune)"]) { $0.stdout.contains("Dune") }
            // A scan of the sample photo: five barcodes, one of a book the catalog lacks (not_found).
            let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../../scripts/examples/back-covers.jpg").standardizedFileURL
            try await expectOK(["-c", "scan \(photo.path) --watch"]) { r in
                r.stdout.contains("\"found\":5") && r.stdout.contains("The Great Gatsby")
                    && r.stdout.contains("not_found")
            }

            // Batch enrichment with --watch (production: over the WebSocket), one book not found.
            let batch = isbns[1...3].joined(separator: " ") + " 9780000000002"
            try await expectOK(["-c", "enrich \(batch) --watch"]) { $0.stdout.contains("9780000000002") }

            // Import with --watch, then status and results of the same job, and watch again (SSE).
            let script = dir.appendingPathComponent("import.bts")
            try """
            import \(csv.path) --watch
            set job ${_.jobId}
            status $job
            expect ${_.status} == completed
            results $job
            watch $job
            """.write(to: script, atomically: true, encoding: .utf8)
            try await expectOK([script.path])

            // Start a batch, watch it live (production: WebSocket), then its status.
            let watchScript = dir.appendingPathComponent("watch.bts")
            try """
            enrich \(isbns[4...5].joined(separator: " "))
            set job ${_.jobId}
            watch $job
            status $job
            """.write(to: watchScript, atomically: true, encoding: .utf8)
            try await expectOK([watchScript.path])

            // Cancel a running batch: done on the contract server; production says it cannot.
            let cancelScript = dir.appendingPathComponent("cancel.bts")
            try """
            enrich \(isbns.joined(separator: " "))
            cancel ${_.jobId}
            """.write(to: cancelScript, atomically: true, encoding: .utf8)
            let cancel = try await Self.bts([cancelScript.path], api: api, in: dir, apiDialect: apiDialect)
            #expect(cancel.isClean, "\(cancel)")
            // v3 cancels by job id (production 3.x can); the v1/v2 production routes cannot.
            if dialect == .production, apiDialect == .v1 {
                #expect(cancel.status == 1, "\(cancel)")
                #expect(cancel.stderr.contains("cannot cancel"), "\(cancel)")
            } else {
                #expect(cancel.status == 0, "\(cancel)")
            }
        }
    }
}
