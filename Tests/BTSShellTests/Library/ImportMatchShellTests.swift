import BTSEmbeddedBackend
import BTSShell
import BTSTerminal
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

/// `import FILE` on the embedded backend: a row the server matched by title ("Dun" by Frank Herbert)
/// is in the library as Dune with its ISBN, the file's title among its sources, and the summary names
/// the row; over the v1/v2 and the v3 routes alike.
@Suite("import: rows matched by title", .onWorkThreads)
struct ImportMatchShellTests {
    static let csv = """
        Title,Author,ISBN13
        The Hunger Games,Suzanne Collins,9780439023481
        Dun,Frank Herbert,

        """

    static let line = "row 2 'Dun' → Dune (Dune Chronicles #1), Frank Herbert"

    /// Runs `body` with a harness speaking `dialect` to the embedded backend (nil: its default,
    /// v1/v2), closing it whatever happens.
    static func withHarness(dialect: APIDialect?, _ body: (ShellHarness) async throws -> Void) async throws {
        let directory = try makeTempDirectory("import-match")
        let environment = [
            "HOME": directory.path,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
        ]
        var options = ShellOptions(
            backend: BackendRequest(forceEmbedded: true),
            terminal: .pipes,
            environment: environment,
            scriptName: "test.bts"
        )
        options.backendOptions.embedded = LocalEmbeddedBackend(
            configuration: ServerConfiguration(),
            catalog: try SharedShellCatalog.get()
        )
        options.backendOptions.timeout = Duration.seconds(60).scaled
        options.backendOptions.dialect = dialect
        let sink = BufferOutputSink()
        let harness = ShellHarness(shell: Shell(options: options, sink: sink), sink: sink, directory: directory)
        do {
            try await body(harness)
        } catch {
            await harness.close()
            throw error
        }
        await harness.close()
    }

    /// Dune is in the library with its ISBN and the file's title as a source; no book is "Dun".
    static func expectDuneInTheLibrary(_ harness: ShellHarness) async {
        #expect(await harness.run("library show 9780340839935") == 0, "\(harness.err)")
        let dune = await harness.lastResult()
        #expect(dune["title"] == "Dune (Dune Chronicles #1)")
        #expect(dune["isbn"] == "9780340839935")
        #expect(dune["authors"] == ["Frank Herbert"])
        #expect(dune["series"] == "Dune Chronicles")
        #expect(dune["sources"]?.arrayValue?.contains("csv-title Dun") == true, "\(dune)")
        #expect(await harness.run("library list") == 0, "\(harness.err)")
        let titles = await harness.lastResult()["books"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
        #expect(Set(titles) == ["The Hunger Games", "Dune (Dune Chronicles #1)"], "\(titles)")
    }

    /// A one-shot `import FILE`: the job is finished before bts exits, its summary on stderr names
    /// the row matched by title.
    @Test func aOneShotImportKeepsTheMatchedBookAndSaysSo() async throws {
        try await Self.withHarness(dialect: nil) { harness in
            try harness.write("mine.csv", Self.csv)
            #expect(await harness.run("import mine.csv") == 0, "\(harness.err)")
            #expect(await harness.shell.finishEmbeddedJobs(after: 0) == 0, "\(harness.err)")
            #expect(harness.err.contains("matched by title, not by ISBN:\n" + Self.line + "\n"), "\(harness.err)")
            #expect(!harness.err.contains("row 1 "), "an ISBN match is not listed: \(harness.err)")
            await Self.expectDuneInTheLibrary(harness)
        }
    }

    /// `import FILE --watch` as JSON: `matches` lists the row, on either dialect's routes.
    @Test(arguments: [APIDialect.v1, .v3])
    func theJSONResultListsTheRow(_ dialect: APIDialect) async throws {
        try await Self.withHarness(dialect: dialect) { harness in
            try harness.write("mine.csv", Self.csv)
            #expect(await harness.run("import mine.csv --watch") == 0, "\(harness.err)")
            let result = await harness.lastResult()
            #expect(
                result["matches"] == [
                    [
                        "row": 2, "csvTitle": "Dun", "matchedTitle": "Dune (Dune Chronicles #1)",
                        "matchedAuthors": ["Frank Herbert"],
                        "isbn": "9780340839935", "matchedBy": "title",
                    ]
                ],
                "\(dialect): \(result)"
            )
            #expect(result["library"]?["created"] == 2, "\(result)")
            await Self.expectDuneInTheLibrary(harness)
            // The table names the row too.
            #expect(await harness.run("set output table; results last") == 0, "\(harness.err)")
            #expect(harness.out.contains(Self.line), "\(harness.out)")
        }
    }
}
