import Foundation
import Testing

/// psql and gh habits on the command line.
extension BinaryTests {
    /// `bts -f FILE.bts ARG…` is `bts FILE.bts ARG…` (psql's -f); it was an unknown option.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func dashFRunsAScriptWithItsArguments() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bts-f-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("hello.bts")
        try Data("echo hello $1 $2\n".utf8).write(to: script)
        let outcome = try await Self.run(["-f", script.path, "big", "world"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout == "hello big world\n", "\(outcome)")
        let both = try await Self.run(["-c", "echo x", "-f", script.path])
        #expect(both.status == 2, "\(both)")
    }

    /// `bts search dune` said only "cannot read script '…/search'".
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aCommandNameGivenAsAScriptGetsAHint() async throws {
        let outcome = try await Self.run(["search", "dune messiah"])
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderr.contains("cannot read script"), "\(outcome)")
        #expect(
            outcome.stderr.contains("'search' is a bts command: to run it, say bts -c 'search '\\''dune messiah'\\'''"),
            "\(outcome)"
        )
        // A word that is no command gets no hint.
        let other = try await Self.run(["nosuchscript"])
        #expect(other.status == 2)
        #expect(!other.stderr.contains("is a bts command"), "\(other)")
    }

    /// `bts help search` printed the top-level help; it prints what `help search` prints inside bts
    /// on a terminal, as text in a pipe too (as `bts --help`); `-c 'help search'` in a pipe is that
    /// text as a JSON string, as every result in a pipe is JSON.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func helpCommandPrintsTheCommandsHelp() async throws {
        let outside = try await Self.run(["help", "search"])
        let inside = try await Self.run(["--output", "table", "-c", "help search"])
        #expect(outside.status == 0, "\(outside)")
        #expect(outside.stdout == inside.stdout, "\(outside)")
        let piped = try await Self.run(["-c", "help search"])
        let text = try? JSONDecoder().decode(String.self, from: Data(piped.stdout.utf8))
        #expect(text == outside.stdout, "\(piped)")
        #expect(outside.stdout.contains("search isbn"), "\(outside)")
        #expect(!outside.stdout.contains("OVERVIEW: The BooksTrack shell"), "\(outside)")
        let scan = try await Self.run(["help", "scan"])
        #expect(scan.status == 0 && scan.stdout.hasPrefix("scan"), "\(scan)")
        // `bts help` alone and `bts help serve` are unchanged.
        let top = try await Self.run(["help"])
        #expect(top.stdout.contains("OVERVIEW: The BooksTrack shell"), "\(top)")
        let serve = try await Self.run(["help", "serve"])
        #expect(serve.stdout.contains("--rate-limit"), "\(serve)")
    }
}

extension BinaryTests {
    /// Second walk: `bts --profile nosuch -c caps` put `-c:1:1` and a caret under `caps`, as if the
    /// command were wrong; the profile comes from the command line.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func anUnknownProfileDoesNotBlameTheCommand() async throws {
        let outcome = try await Self.run(["--profile", "nosuch", "-c", "caps"])
        #expect(outcome.status == 2, "\(outcome)")
        #expect(
            outcome.stderr.hasPrefix("error: unknown profile 'nosuch' (known: local, production, staging)"),
            "\(outcome)"
        )
        #expect(!outcome.stderr.contains("-c:1:1"), "\(outcome)")
    }
}
