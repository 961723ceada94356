import BTSShell
import BooksTrackContract
import Foundation
import Testing

/// Issue 33, item 6: `library stats` printed its chart when piped and one escaped JSON blob for
/// `-o csv`; it now follows the output rules of every other command.
@Suite("Library stats output")
struct LibraryStatsOutputTests {
    /// What `line` printed on stdout.
    static func output(of line: String, in shell: ShellHarness) async -> (status: Int32, text: String) {
        let before = shell.out.count
        let status = await shell.run(line)
        return (status, String(shell.out.dropFirst(before)))
    }

    @Test func statsAreDataWhenPipedAndRowsInCSVAndNDJSON() async throws {
        try await withShell { shell in
            try shell.write("gr.csv", try LibraryFixtures.text("goodreads_library_export.csv"))
            #expect(await shell.run("library import gr.csv") == 0, "\(shell.err)")

            // stdout is not a terminal: JSON, the same value as $_.
            let piped = await Self.output(of: "library stats", in: shell)
            #expect(piped.status == 0)
            let parsed = try JSONDecoder().decode(JSONValue.self, from: Data(piped.text.utf8))
            #expect(parsed["books"]?.intValue == 10, "\(piped.text)")
            #expect(!piped.text.contains("█"), "\(piped.text)")

            let csv = await Self.output(of: "library stats --output csv", in: shell)
            let lines = csv.text.split(separator: "\n").map(String.init)
            #expect(lines.first == "chart,label,count", "\(csv.text)")
            #expect(lines.contains("perShelf,read,\(Self.count(parsed, "perShelf", "shelf", "read"))"), "\(csv.text)")
            #expect(lines.contains("totals,books,10"), "\(csv.text)")
            #expect(!csv.text.contains("{"), "\(csv.text)")

            let ndjson = await Self.output(of: "library stats --output ndjson", in: shell)
            let rows = try ndjson.text.split(separator: "\n").map {
                try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
            }
            #expect(rows.count == lines.count - 1)
            #expect(rows.allSatisfy { $0["chart"] != nil && $0["label"] != nil && $0["count"] != nil })

            // The chart is the table form.
            let table = await Self.output(of: "library stats --output table", in: shell)
            #expect(table.text.contains("Books per shelf") && table.text.contains("█"), "\(table.text)")
        }
    }

    static func count(_ stats: JSONValue, _ chart: String, _ key: String, _ label: String) -> Int {
        stats[chart]?.arrayValue?.first { $0[key]?.stringValue == label }?["count"]?.intValue ?? -1
    }
}
