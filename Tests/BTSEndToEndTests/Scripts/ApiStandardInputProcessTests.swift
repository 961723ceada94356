import Foundation
import TestSupport
import Testing

/// `api --input -` through the real binary: a body piped to `bts -c` or to a script file is sent;
/// a script read from standard input is never taken for the body; a body past the limit is a
/// usage error.
@Suite("api --input - (binary)", .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason)))
struct ApiStandardInputProcessTests {
    static let body = "{\"isbn\":\"9780340839935\"}"

    @Test func aBodyPipedToACommandIsSent() async throws {
        let outcome = try await BinaryTests.run(
            ["--local", "-c", "api POST /api/v2/books/enrich --input -"],
            stdin: Self.body
        )
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.stdout.contains("\"success\":true") || outcome.stdout.contains("\"success\": true"),
            "\(outcome)"
        )
    }

    @Test func aBodyPipedToAScriptFileIsSent() async throws {
        let directory = try makeTempDirectory("api-stdin")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("enrich.bts")
        try Data(
            """
            api POST /api/v2/books/enrich --input -
            expect ${_.success} == true
            expect ${_http.method} == POST
            echo sent

            """.utf8
        ).write(to: script)
        let outcome = try await BinaryTests.run(["--local", script.path], stdin: Self.body)
        #expect(outcome.status == 0 && outcome.stdout.hasSuffix("sent\n"), "\(outcome)")
    }

    /// `bts < script.bts`: the script is standard input, so `--input -` refuses, and the lines after
    /// it are still there to run.
    @Test func theScriptOnStandardInputIsNeverTheBody() async throws {
        let outcome = try await BinaryTests.run(
            ["--local", "--continue-on-error"],
            stdin: "api POST /api/v2/books/enrich --input -\necho after\n"
        )
        #expect(outcome.status == 2, "\(outcome)")
        #expect(
            outcome.stderr.contains("--input - cannot read standard input while bts reads its commands from it"),
            "\(outcome)"
        )
        #expect(outcome.stdout.hasSuffix("after\n"), "\(outcome)")
    }

    @Test func aBodyPastTheLimitIsAUsageError() async throws {
        let outcome = try await BinaryTests.run(
            ["--local", "-c", "api POST /api/v2/books/enrich --input -"],
            stdin: String(repeating: "a", count: (1 << 20) + 1)
        )
        #expect(outcome.status == 2, "\(outcome.status) \(outcome.stderr)")
        #expect(outcome.stderr.contains("larger than 1 MiB"), "\(outcome.stderr)")
    }
}
