import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@testable import BTSShell

@Suite("mission commands")
struct MissionCommandTests {
    @Test func searchRoutesISBNsAndTitles() async throws {
        try await withShell { harness in
            #expect(await harness.run("search 0-439-02348-3") == 0, "\(harness.err)")
            #expect(await harness.lastResult()["kind"] == .string("isbn"))
            #expect(await harness.run("search hunger games --limit 3") == 0)
            let result = await harness.lastResult()
            #expect(result["kind"] == .string("title"))
            #expect((result["results"]?.arrayValue?.count ?? 0) <= 3)
            #expect(await harness.run("search --title hunger --author collins") == 0, "\(harness.err)")
            #expect(await harness.lastResult()["kind"] == .string("advanced"))
        }
    }

    @Test func importPreflightNeedsNoRequest() async throws {
        try await withShell(backend: BackendRequest(apiURL: "http://127.0.0.1:\(closedPort())")) { harness in
            try harness.write("one-column.csv", "title\nDune\n")
            try harness.write("header-only.csv", "Title,Author\n")
            #expect(await harness.run("import missing.csv") == 2)
            #expect(harness.err.contains("cannot import 'missing.csv': no such file"))
            #expect(await harness.run("import one-column.csv") == 2)
            #expect(harness.err.contains("not a CSV header with at least 2 columns"))
            #expect(await harness.run("import header-only.csv") == 2)
            #expect(harness.err.contains("no data rows"))
            let big = harness.directory.appendingPathComponent("big.csv")
            _ = FileManager.default.createFile(atPath: big.path, contents: nil)
            let handle = try FileHandle(forWritingTo: big)
            try handle.write(contentsOf: Data("Title,Author\n".utf8))
            try handle.truncate(atOffset: UInt64(JobLimits.maxCSVBytes + 1))
            try handle.close()
            #expect(await harness.run("import big.csv") == 2)
            #expect(harness.err.contains("at most \(JobLimits.maxCSVSize)"), "\(harness.err)")
            // The accepted columns are known before any job (the server's own list): no title or
            // ISBN column is refused here, with the server's wording; a quoted header is read as CSV.
            try harness.write("columns.csv", "Name,\"Writer, first\"\nDune,Herbert\n")
            #expect(await harness.run("import columns.csv") == 2)
            #expect(
                harness.err.contains(
                    "no title or ISBN column: the header must name one of Title, Book Title, ISBN, ISBN13 or ISBN/UID (found 'Name', 'Writer, first')"
                ),
                "\(harness.err)"
            )
            try harness.write("quoted.csv", "\"Book Title\",\"Author\"\nDune,Herbert\n")
            #expect(
                await harness.run("import quoted.csv") == 3,
                "passes the preflight, then meets the closed port: \(harness.err)"
            )
            #expect(CSVPreflight.fields("a,\"b \"\"x\"\"\",c") == ["a", "b \"x\"", "c"])
        }
    }

    @Test func importWatchAndJobCommands() async throws {
        try await withShell { harness in
            try harness.write(
                "library.csv",
                """
                Title,Author,ISBN13
                The Hunger Games,Suzanne Collins,="9780439023481"
                Catching Fire,Suzanne Collins,="9780439023498"
                Not A Real Book,Nobody,="9780000000002"

                """
            )
            let status = await harness.run(
                """
                import library.csv --watch
                expect ${_.pipeline} == csv_import
                set job ${_.jobId}
                jobs
                expect count ${_.jobs} == 1
                status last
                expect ${_.status} == completed
                results $job
                expect ${_.jobId} == $job
                cancel last
                """
            )
            #expect(status == 0, "\(harness.err)")
            // stdout carries results only: no progress events in a pipe, and none on stderr
            // either unless asked (`set progress on`: one JSON object per event on stderr).
            #expect(!harness.out.contains("\"event\""), "\(harness.out)")
            #expect(!harness.err.contains("\"event\""), "\(harness.err)")
            #expect(await harness.run("set progress on\nimport library.csv --watch") == 0, "\(harness.err)")
            #expect(harness.err.contains("\"event\":\"progress\""), "\(harness.err)")
            #expect(!harness.out.contains("\"event\""), "\(harness.out)")
        }
    }

    @Test func batchEnrichmentFromAFileWithWatch() async throws {
        try await withShell { harness in
            try harness.write("isbns.txt", "# two books\n9780439023481\n\n9780439023498  # catching fire\n")
            let status = await harness.run("enrich --from isbns.txt --watch\nexpect ${_.totalCount} == 2\n")
            #expect(status == 0, "\(harness.err)")
            try harness.write("bad.txt", "9780439023481\n9780439023482\n")
            #expect(await harness.run("enrich --from bad.txt") == 2)
            #expect(harness.err.contains("bad.txt:2: '9780439023482'"), "\(harness.err)")
        }
    }

    @Test func singleEnrichmentAndMetaCommands() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                enrich 9780439023481
                expect ${_.isbn} == 9780439023481
                caps
                expect count ${_.features} >= 5
                limits
                expect count ${_.budgets} >= 7
                recommend --limit 2
                similar 9780439023481 --limit 2
                expect count ${_.results} == 2
                timing on
                search isbn 9780439023481
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.err.contains("budget search"), "timing shows the budget: \(harness.err)")
        }
    }

    @Test func configFileWithTokenMustBePrivate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bts-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("config.toml")
        try Data("default_profile = \"mine\"\n[profiles.mine]\nurl = \"http://127.0.0.1:9\"\ntoken = \"s3cret\"\n".utf8)
            .write(to: file)
        chmod(file.path, 0o644)
        #expect(throws: ShellError.self) { try ShellConfig.load(from: file) }
        chmod(file.path, 0o600)
        let config = try ShellConfig.load(from: file)
        #expect(config.defaultProfile == "mine")
        #expect(config.profile(named: "mine")?.token == "s3cret")
        #expect(config.profile(named: "staging")?.url.absoluteString == "https://staging-api.oooefam.net")
    }

    @Test func backendSelectionOrder() throws {
        let config = ShellConfig(defaultProfile: "staging")
        func select(_ request: BackendRequest, _ env: [String: String] = [:]) throws -> BackendTarget {
            try BackendSelection.select(request, environment: env, loadConfig: { () throws(ShellError) in config })
        }
        #expect(
            try select(BackendRequest(apiURL: "http://a:1", profile: "local"), ["BTS_API_URL": "http://b:2"])
                == .remote(url: URL(string: "http://a:1")!, token: nil, label: "http://a:1")
        )
        #expect(try select(BackendRequest(profile: "local"), ["BTS_API_URL": "http://b:2"]).label.hasPrefix("local"))
        #expect(try select(BackendRequest(), ["BTS_API_URL": "http://b:2"]).label == "http://b:2")
        #expect(try select(BackendRequest()).label.hasPrefix("staging"))
        #expect(try select(BackendRequest(apiURL: "http://a:1", forceEmbedded: true)) == .embedded)
        let empty = try BackendSelection.select(
            BackendRequest(),
            environment: [:],
            loadConfig: { () throws(ShellError) in ShellConfig() }
        )
        #expect(empty == .embedded)
        #expect(throws: ShellError.self) { try select(BackendRequest(apiURL: "ftp://x")) }
    }
}
