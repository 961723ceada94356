import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell

/// The CSV and batch limits have one home (`JobLimits`): the shell's checks, messages and help
/// derive from it, so a limit written again as a literal shows here as soon as the home changes.
@Suite("job limits")
struct JobLimitsTests {
    /// A CSV file of exactly `bytes` bytes: a header and `Dune,Herbert` rows padded by one last row.
    static func csv(bytes: Int, in directory: URL) throws -> URL {
        let header = "Title,Author\n"
        let row = "Dune,Herbert\n"
        var text = header + String(repeating: row, count: (bytes - header.utf8.count) / row.utf8.count)
        text += String(repeating: "x", count: bytes - text.utf8.count)
        let url = directory.appendingPathComponent("limit-\(bytes).csv")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func csvPreflightTakesTheLimitAndRefusesOneByteMore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bts-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let atLimit = try Self.csv(bytes: JobLimits.maxCSVBytes, in: directory)
        try CSVPreflight.check(atLimit, shownAs: "at.csv", range: nil, columns: true)
        let over = try Self.csv(bytes: JobLimits.maxCSVBytes + 1, in: directory)
        do {
            try CSVPreflight.check(over, shownAs: "over.csv", range: nil, columns: true)
            Issue.record("a file one byte over the limit passed")
        } catch {
            #expect(error.code == .fileTooLarge)
            #expect(error.message.hasSuffix("at most \(JobLimits.maxCSVSize)"), "\(error.message)")
        }
    }

    @Test func helpAndMessagesStateTheLimitsOfTheHome() async throws {
        try await withShell { harness in
            #expect(await harness.run("help import --output table") == 0)
            #expect(
                harness.out.contains("1–\(JobLimits.maxCSVRowsText) rows, at most \(JobLimits.maxCSVSize)"),
                "\(harness.out)"
            )
            #expect(await harness.run("help enrich --output table") == 0)
            #expect(harness.out.contains("at most \(JobLimits.maxBatchSize) books"), "\(harness.out)")
        }
        #expect(ErrorCode.fileTooLarge.userMessage().contains(JobLimits.maxCSVSize))
        #expect(ErrorCode.batchTooLarge.userMessage().contains("at most \(JobLimits.maxBatchSize) books"))
        #expect(JobLimits.grouped(1_234_567) == "1,234,567" && JobLimits.grouped(999) == "999")
    }

    @Test func aBatchFileOneISBNOverTheLimitIsRefusedLocally() async throws {
        try await withShell { harness in
            let isbn = "9780439023481\n"
            try harness.write("over.txt", String(repeating: isbn, count: JobLimits.maxBatchSize + 1))
            #expect(await harness.run("enrich --from over.txt") == 2)
            #expect(
                harness.err.contains(
                    "holds \(JobLimits.maxBatchSize + 1) ISBNs; a batch takes at most \(JobLimits.maxBatchSize)"
                ),
                "\(harness.err)"
            )
        }
    }
}
