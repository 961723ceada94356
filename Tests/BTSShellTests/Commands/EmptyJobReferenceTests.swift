import BTSShell
import Testing

/// `watch ""` (an unset variable) named no job, polled the server for 8 s and said it had lost it;
/// now an empty job reference is a usage error at once, for every job command, with no request.
@Suite struct EmptyJobReferenceTests {
    @Test(arguments: ["watch", "status", "results", "cancel"])
    func anEmptyJobIsAUsageErrorAtOnce(_ command: String) async throws {
        try await withShell { harness in
            // Exit 2 and the usage sentence: polling the server would end in exit 1 ("lost").
            #expect(await harness.run("\(command) \"\"") == 2, "\(harness.err)")
            #expect(harness.err.contains("no job given"), "\(harness.err)")
        }
    }
}
