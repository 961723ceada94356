import BTSShell
import BooksTrackEmbedding
import Foundation
import TestSupport
import Testing

/// Every example runs: each command's help examples (the same lines the README's
/// generated reference shows) and every `$ …` command line of the README run against the embedded
/// backend and exit as documented.
///
/// The rule, kept honest here:
/// - Each example runs as written, in a fresh session whose directory holds the fixtures an
///   example names: `goodreads_library_export.csv` (also in `~` for the README), `isbns.txt`,
///   `setup.bts`, `lib/show.bts`, `back-covers.jpg`. Nothing else is prepared.
/// - An example that reads the previous result (`${_…}`, `more`, `save`) or a job (`last`, `watch`,
///   `status`, `results`, `cancel`) runs after one prelude that makes it: `search the hunger games`
///   for a result (`search title harry potter --limit 5` for `more`, which needs a next page),
///   `import goodreads_library_export.csv` for a job; one that reads the library (`library
///   show|set|remove`, `--library`) after three books are saved (``libraryPrelude``: The Hunger
///   Games and two Dune books on the `read` shelf); `unalias hg` after the `alias hg …` example.
/// - The expected status is 0, except where the help documents another: `exit 3` exits 3, and
///   `connect` to a profile or URL where nothing listens keeps the current server and fails with
///   3 (network) unless `--force` (so the test assumes nothing listens on localhost:8787);
///   `connect embedded` always succeeds.
@Suite("every example runs") struct ExamplesRunTests {
    static let csv = """
        Title,Author,ISBN13,My Rating
        The Hunger Games,Suzanne Collins,9780439023481,5
        Catching Fire,Suzanne Collins,9780439023498,4

        """

    /// What `example` needs run before it (nil: nothing).
    static let libraryPrelude = "search isbn 9780439023481\nsave --shelf read\nsearch dune --limit 2\nsave --shelf read"

    static func prelude(for example: String) -> String? {
        let words = example.split(separator: " ")
        if ["library show", "library set", "library remove"].contains(where: { example.hasPrefix($0) })
            || example.contains("--library")
        {
            return libraryPrelude
        }
        if example.hasPrefix("unalias hg") { return "alias hg search 9780439023481" }
        if words.first == "more" { return "search title harry potter --limit 5" }
        if words.first == "save" { return "search the hunger games" }
        // Results exist once the job has ended: `watch` follows it to its end (in-process requests
        // answer fast enough that `results` otherwise ran before the two-row import finished).
        if words.first == "results" { return "import goodreads_library_export.csv; watch" }
        if example.contains("${_.jobId}") || ["watch", "status", "cancel"].contains(words.first ?? "") {
            return "import goodreads_library_export.csv"
        }
        if example.contains("${_.results") || example.contains("${_.totalCount}") { return "search the hunger games" }
        return nil
    }

    /// The documented exit status of `example`.
    static func expectedStatus(_ example: String) -> Int32 {
        if example == "exit 3" { return 3 }
        if example.hasPrefix("connect "), !example.contains("--force"), example != "connect embedded" {
            return ExitStatus.network.rawValue
        }
        return 0
    }

    /// Every example of every command and subcommand, with its command path.
    static var helpExamples: [(command: String, example: String)] {
        CommandRegistry.standard.commands.flatMap { spec in
            spec.examples.map { (spec.name, $0) }
                + spec.subcommands.flatMap { sub in sub.examples.map { ("\(spec.name) \(sub.name)", $0) } }
        }
    }

    static func fixtures(in directory: URL) throws {
        try Data(csv.utf8).write(to: directory.appendingPathComponent("goodreads_library_export.csv"))
        try Data("# two books\n9780439023481\n9780439023498\n".utf8).write(
            to: directory.appendingPathComponent("isbns.txt")
        )
        // The sample photo of five back-cover barcodes (made by the scanning tests' SamplePhoto).
        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../scripts/examples/back-covers.jpg"
        )
        try FileManager.default.copyItem(
            at: photo.standardizedFileURL,
            to: directory.appendingPathComponent("back-covers.jpg")
        )
        try Data("set output json\necho set up\n".utf8).write(to: directory.appendingPathComponent("setup.bts"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("lib"),
            withIntermediateDirectories: true
        )
        try Data("search isbn $1\n".utf8).write(to: directory.appendingPathComponent("lib/show.bts"))
    }

    @Test func everyHelpExampleRuns() async throws {
        #expect(Self.helpExamples.count >= 40, "examples found: \(Self.helpExamples.count)")
        for (command, example) in Self.helpExamples {
            let harness = try ShellHarness.make()
            try Self.fixtures(in: harness.directory)
            if let prelude = Self.prelude(for: example) {
                #expect(await harness.run(prelude) == 0, "prelude of '\(example)': \(harness.err)")
            }
            let status = await harness.run(example)
            #expect(status == Self.expectedStatus(example), "\(command): '\(example)' exited \(status): \(harness.err)")
            await harness.close()
        }
    }

    /// The `$ …` lines of the README and of every page in `docs/`, run by /bin/sh with the real
    /// binary first on the PATH.
    static func readmeCommandLines() throws -> [String] {
        let docs = ReadmeReferenceTests.repositoryURL.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") }.sorted()
            .map { docs.appendingPathComponent($0) }
        var lines: [String] = []
        for page in [ReadmeReferenceTests.readmeURL] + pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            var inBlock = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("```") {
                    inBlock.toggle()
                    continue
                }
                if inBlock, line.hasPrefix("$ ") { lines.append(String(line.dropFirst(2))) }
            }
        }
        return lines
    }

    @Test(.enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason)))
    func everyReadmeCommandLineRuns() async throws {
        let lines = try Self.readmeCommandLines()
        #expect(lines.count >= 4, "README command lines found: \(lines)")
        let binary = URL(fileURLWithPath: try #require(BTSBinary.path))
        for line in lines {
            let sandbox = try TerminalSandbox()
            let home = sandbox.root.appendingPathComponent("home")
            try Self.fixtures(in: home)
            try Self.fixtures(in: sandbox.work)
            let process = SpawnedProcess()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", line]
            var environment = ProcessInfo.processInfo.environment.merging(sandbox.environment) { $1 }
            environment["BTS_API_URL"] = nil
            // The sandbox's HOME has no sentence model: `semantic` uses the one scripts/setup installed.
            environment["BTS_MODEL_DIR"] = ModelLocation.installed()?.path
            environment["PATH"] =
                binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            process.environment = environment
            process.currentDirectoryURL = sandbox.work
            let errURL = sandbox.root.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            let stderr = try FileHandle(forWritingTo: errURL)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = stderr
            // A line that reads the library first saves books into it, as the help examples' rule says.
            if line.contains("library") {
                let prelude = SpawnedProcess()
                prelude.executableURL = binary
                prelude.arguments = ["-c", Self.libraryPrelude.replacingOccurrences(of: "\n", with: "; ")]
                prelude.environment = environment
                prelude.currentDirectoryURL = sandbox.work
                prelude.standardOutput = FileHandle.nullDevice
                prelude.standardError = FileHandle.nullDevice
                try prelude.run()
                prelude.waitUntilExit()
            }
            try process.run()
            let deadline = ContinuousClock.now + Duration.seconds(120).scaled
            while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            try stderr.close()
            let errors = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "README: '\(line)' exited \(process.terminationStatus): \(errors)")
        }
    }
}
