import BooksTrackContract
import Foundation
import TestSupport
import Testing

/// The embedded backend behaves as the reader's own machine: it keeps no rate-limit budgets unless
/// asked to rehearse production's (`--limits production`), and a job a process started is finished
/// before that process exits, its books in the library.
@Suite("embedded backend at home")
struct EmbeddedHomeTests {
    /// `bts --local ARGUMENTS` in private XDG directories under `root`, working in `root`.
    static func bts(_ arguments: [String], root: URL) async throws -> ProcessOutcome {
        guard let binary = BinaryTests.binary else { throw BinaryTests.SkipError() }
        return try await ChildProcess.run(
            binary,
            ["--local"] + arguments,
            environment: LibraryProcessTests.environment(root),
            directory: root,
            timeout: .seconds(180)
        )
    }

    static func json(_ outcome: ProcessOutcome) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(outcome.stdout.utf8))
    }

    /// Ten `semantic` queries and two `similar --library` in one process: with `--no-wait`, a spent
    /// budget would end the run with exit 5; `limits` says every class is unmetered.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func tenSemanticQueriesAndTwoSimilarLibraryNeverWait() async throws {
        let root = try makeTempDirectory("home-budgets")
        defer { try? FileManager.default.removeItem(at: root) }
        let queries = [
            "wizard school", "space war", "dragons", "love in paris", "a detective in london", "whales",
            "robots", "a girl and her horse", "war at sea", "cooking",
        ]
        let script =
            queries.map { "semantic \($0) --limit 1" }
            + [
                "search isbn 9780439023481", "save", "search isbn 9780439023498", "save",
                "similar --library --limit 3", "similar --library --limit 3", "limits",
            ]
        let outcome = try await Self.bts(["--no-wait", "-o", "json", "-c", script.joined(separator: "; ")], root: root)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(!outcome.stderr.contains("rate limited"), "\(outcome)")
        let limits = outcome.stdout.split(separator: "\n").last.flatMap {
            try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
        }
        let sources = Set((limits?["budgets"]?.arrayValue ?? []).compactMap { $0["source"]?.stringValue })
        #expect(sources == ["unmetered"], "\(outcome.stdout.suffix(600))")

        // `--limits production` rehearses production's budgets: the sixth semantic query in a
        // minute would wait, and with --no-wait it fails with exit 5.
        let rehearsal = try await Self.bts(
            [
                "--limits", "production", "--no-wait", "-o", "json", "-c",
                queries.prefix(6).map { "semantic \($0) --limit 1" }.joined(separator: "; "),
            ],
            root: root
        )
        #expect(rehearsal.status == 5, "\(rehearsal)")
        #expect(rehearsal.stderr.contains("semantic budget is spent"), "\(rehearsal)")
        // It names the embedded backend: with a server's address it is a usage error.
        let remote = try await Self.bts(
            ["--limits", "production", "--api", "http://127.0.0.1:9", "-c", "limits"],
            root: root
        )
        #expect(remote.status == 2 || remote.stderr.contains("cannot be combined"), "\(remote)")
    }

    /// `bts -c 'import FILE'` without `--watch` printed a job id and exited; the job ended with the
    /// process and the library stayed empty. The process now finishes the job first.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aOneShotImportBringsItsBooksIntoTheLibrary() async throws {
        let root = try makeTempDirectory("home-import")
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(
            """
            Title,Author,ISBN13,My Rating,Exclusive Shelf
            The Hunger Games,Suzanne Collins,9780439023481,5,read
            Dune,Frank Herbert,9780441172719,4,currently-reading

            """.utf8
        ).write(to: root.appendingPathComponent("mine.csv"))
        let started = try await Self.bts(["-o", "json", "-c", "import mine.csv"], root: root)
        #expect(started.status == 0, "\(started)")
        #expect(Self.json(started)?["jobId"]?.stringValue != nil, "\(started)")
        #expect(started.stderr.contains("finishing import job"), "\(started)")
        #expect(started.stderr.contains("booksCreated"), "the job's summary on stderr: \(started)")
        // A later process finds the books in the library.
        let listed = try await Self.bts(["-o", "json", "-c", "library list"], root: root)
        #expect(listed.status == 0, "\(listed)")
        let titles = Set((Self.json(listed)?["books"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue })
        #expect(titles.contains("The Hunger Games") && titles.contains { $0.hasPrefix("Dune") }, "\(listed)")
        // `--quiet` finishes it too, silently.
        let quiet = try await Self.bts(["-q", "-o", "json", "-c", "import mine.csv"], root: root)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet)")
    }

    /// `scan --shelf` is checked as `library set --shelf` is, before the photo is sent; without
    /// `--save` it has nothing to say.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func scanChecksItsShelfBeforeSending() async throws {
        let root = try makeTempDirectory("home-scan")
        defer { try? FileManager.default.removeItem(at: root) }
        let photo = BinaryTests.examplesDirectory.appendingPathComponent("back-covers.jpg").path
        let typo = try await Self.bts(
            ["-c", "search isbn 9780439023481; save --shelf owned; scan \(photo) --save --shelf ownd"],
            root: root
        )
        #expect(typo.status == 2, "\(typo)")
        #expect(typo.stderr.contains("there is no shelf 'ownd' yet; did you mean 'owned'?"), "\(typo)")
        #expect(!typo.stderr.contains("started scan job"), "\(typo)")
        let alone = try await Self.bts(["-c", "scan \(photo) --shelf owned"], root: root)
        #expect(alone.status == 2, "\(alone)")
        #expect(alone.stderr.contains("add --save"), "\(alone)")
        // On the embedded backend a scan is followed: its books are listed, not a job id to watch.
        let scanned = try await Self.bts(["-o", "json", "-c", "scan \(photo)"], root: root)
        #expect(scanned.status == 0, "\(scanned)")
        #expect(Self.json(scanned)?["books"]?.arrayValue?.isEmpty == false, "\(scanned)")
        #expect(!scanned.stderr.contains("'watch' follows it"), "\(scanned)")
    }

    /// A barcode the offline catalog does not know (often another edition of a book it has) is
    /// named with a way that works, never `search isbn` of itself; `search isbn` of it says why.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func anotherEditionIsFoundByTitle() async throws {
        let root = try makeTempDirectory("home-editions")
        defer { try? FileManager.default.removeItem(at: root) }
        let photo = BinaryTests.examplesDirectory.appendingPathComponent("back-covers.jpg").path
        let saved = try await Self.bts(
            ["-o", "table", "-c", "set library scratch; scan \(photo) --save --shelf owned"],
            root: root
        )
        #expect(saved.status == 0, "\(saved)")
        let lines = (saved.stdout + saved.stderr).split(separator: "\n").map(String.init)
        let unknown = try #require(lines.first { $0.hasPrefix("Not known here: ") }, "\(saved)")
        let isbn = String(unknown.dropFirst("Not known here: ".count).prefix { $0.isNumber })
        #expect(isbn.count == 13, "\(unknown)")
        #expect(!unknown.contains("search isbn"), "\(unknown)")
        #expect(lines.contains("  find that one by title: search title WORDS; save --shelf owned"), "\(saved)")
        #expect(unknown.count <= 80, "\(unknown)")
        // Every `search isbn` the scan suggests answers.
        for line in lines where line.contains("search isbn ") {
            let suggested = line.components(separatedBy: "search isbn ")[1].prefix { $0.isNumber }
            let looked = try await Self.bts(["-c", "search isbn \(suggested)"], root: root)
            #expect(looked.status == 0, "\(line): \(looked)")
        }
        let missing = try await Self.bts(["-c", "search isbn \(isbn)"], root: root)
        #expect(missing.status == 1, "\(missing)")
        #expect(
            missing.stderr.contains(
                "No book with ISBN \(isbn) in the offline catalog, which holds one edition of each book"
            ),
            "\(missing)"
        )
        #expect(missing.stderr.contains("(search title WORDS)"), "\(missing)")
    }

    /// Every example script leaves the reader's library byte for byte as it was (tour.bts imported
    /// its demo CSV into it, moving a book from currently-reading to read and adding three), and
    /// its scratch library is gone when bts exits.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func exampleScriptsLeaveTheLibraryAlone() async throws {
        let root = try makeTempDirectory("home-examples")
        defer { try? FileManager.default.removeItem(at: root) }
        let temporary = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("out"),
            withIntermediateDirectories: true
        )
        let mine = try await Self.bts(
            ["-c", "search isbn 9780439023481; save --shelf currently-reading; library set 9780439023481 --rating 3"],
            root: root
        )
        #expect(mine.status == 0, "\(mine)")
        let library = root.appendingPathComponent("data/bts")
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: library.path) {
                files[name] = try Data(contentsOf: library.appendingPathComponent(name))
            }
            return files
        }
        let before = try snapshot()
        #expect(before["library.sqlite"] != nil)
        guard let binary = BinaryTests.binary else { throw BinaryTests.SkipError() }
        var environment = LibraryProcessTests.environment(root)
        environment["TMPDIR"] = temporary.path
        for script in ["tour.bts", "smoke.bts", "batch.bts", "language.bts"] {
            let path = BinaryTests.examplesDirectory.appendingPathComponent(script).path
            let outcome = try await ChildProcess.run(
                binary,
                ["--local", "--quiet", path, root.appendingPathComponent("out").path],
                environment: environment,
                directory: root,
                timeout: .seconds(300)
            )
            #expect(outcome.status == 0, "\(script): \(outcome)")
            #expect(try snapshot() == before, "\(script) changed the library")
            let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter {
                $0.hasPrefix("bts-scratch-library")
            }
            #expect(left.isEmpty, "\(script) left its scratch library: \(left)")
        }
    }

    /// `set library scratch` starts empty, and `set library default` goes back to the reader's.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aScratchLibraryIsSeparateAndTemporary() async throws {
        let root = try makeTempDirectory("home-scratch")
        defer { try? FileManager.default.removeItem(at: root) }
        let script = [
            "search isbn 9780439023481", "save",
            "set library scratch", "library list", "expect ${_.total} == 0",
            "search isbn 9780439023498", "save", "library list", "expect ${_.total} == 1",
            "set library default", "library list", "expect ${_.total} == 1",
            "expect ${_.books[0].isbn} == 9780439023481",
        ]
        let outcome = try await Self.bts(["-o", "json", "-c", script.joined(separator: "; ")], root: root)
        #expect(outcome.status == 0, "\(outcome)")
        let invalid = try await Self.bts(["-c", "set library mine"], root: root)
        #expect(invalid.status == 2, "\(invalid)")
    }
}
