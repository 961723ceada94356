import Foundation
import Testing

/// `--columns` and `-o markdown` through the real binary on the embedded backend.
extension BinaryTests {
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func columnsChooseAndOrderTheColumnsOfCSVAndMarkdown() async throws {
        let csv = try await Self.run(["--local", "-c", "search isbn 9780439023481 -o csv --columns YEAR,title"])
        #expect(csv.status == 0, "\(csv)")
        #expect(csv.stdout == "year,title\n2008,\"The Hunger Games (The Hunger Games, #1)\"\n", "\(csv)")
        // JSON keeps the whole result.
        let json = try await Self.run(["--local", "-c", "search isbn 9780439023481 --columns title"])
        #expect(json.status == 0 && json.stdout.contains("\"isbn\":\"9780439023481\""), "\(json)")
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func markdownIsAPipeTableInAPipeToo() async throws {
        let outcome = try await Self.run([
            "--local", "-c", "search isbn 9780439023481 -o markdown --columns isbn,title",
        ])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.stdout == """
                | ISBN | TITLE |
                | --- | --- |
                | 9780439023481 | The Hunger Games (The Hunger Games, #1) |

                (1 of 1 result)

                """,
            "\(outcome)"
        )
        let set = try await Self.run(["--local", "-c", "set output markdown; search isbn 9780439023481"])
        #expect(set.stdout.hasPrefix("| ISBN | TITLE | AUTHORS | YEAR |"), "\(set)")
    }

    /// An unknown name is refused before anything runs: a dead server is never asked.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func anUnknownColumnIsAUsageErrorBeforeAnyRequest() async throws {
        let outcome = try await Self.run(["--api", "http://127.0.0.1:9", "-c", "search dune --columns titel,year"])
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderr.contains("did you mean 'title,year'?"), "\(outcome)")
        #expect(outcome.stderr.contains("isbn, title, authors, year, pages or score"), "\(outcome)")
        #expect(outcome.stdout.isEmpty, "\(outcome)")
    }
}
