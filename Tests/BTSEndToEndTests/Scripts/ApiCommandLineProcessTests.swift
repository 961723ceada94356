import Foundation
import TestSupport
import Testing

/// `bts api …` from the shell's command line (as `gh api`): the shell's `api` command, once, its
/// words as given; bts's options before it apply; a script named `api` in the directory still runs.
@Suite("bts api (binary)", .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason)))
struct ApiCommandLineProcessTests {
    @Test func aRouteIsAskedFromTheCommandLine() async throws {
        let outcome = try await BinaryTests.run(["--local", "api", "/v1/search/title", "-f", "q=dune"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.contains("Dune"), "\(outcome)")
    }

    @Test func includeAndAPostBodyAndAFailure() async throws {
        let headers = try await BinaryTests.run(["--local", "api", "-i", "/v1/search/title", "-f", "q=dune"])
        #expect(headers.status == 0 && headers.stdout.hasPrefix("HTTP 200\n"), "\(headers)")
        // A word holding quotes, brackets and a dollar reaches the command as it was given.
        let post = try await BinaryTests.run([
            "--local", "api", "POST", "/api/v2/books/enrich", "-f", "isbn=\"9780340839935\"",
        ])
        #expect(post.status == 0, "\(post)")
        #expect(post.stdout.contains("\"success\":true") || post.stdout.contains("\"success\": true"), "\(post)")
        let missing = try await BinaryTests.run(["--local", "api", "/v1/no-such-route-$HOME"])
        #expect(missing.status == 1, "\(missing)")
        // The sentence, and no place in a line the user never wrote (`-c:1:1:`).
        #expect(missing.stderr.hasPrefix("error: This server does not offer GET"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("-c:"), "\(missing.stderr)")
        #expect(missing.stderr.contains("no-such-route-$HOME"), "not expanded: \(missing.stderr)")
    }

    @Test func aScriptNamedApiStillRuns() async throws {
        let directory = try makeTempDirectory("api-script")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("echo the script ran\n".utf8).write(to: directory.appendingPathComponent("api"))
        let outcome = try await BinaryTests.run(["--local", "api"], directory: directory)
        #expect(outcome.status == 0 && outcome.stdout == "the script ran\n", "\(outcome)")
    }
}
