import BTSTerminal
import BooksTrackContract
import Testing

@testable import BTSShell

/// A unique prefix of at least 4 characters names a job wherever a job id does; an ambiguous or too
/// short one is a usage error; an unknown full id still goes to the server.
@Suite struct JobIDPrefixTests {
    static let ids = [
        "6571c0de-0000-4000-8000-000000000001", "6571c0de-0000-4000-8000-000000000002",
        "a0b1c2d3-0000-4000-8000-000000000003", "batch_7c1e",
    ]

    @Test func aUniquePrefixNamesItsJob() throws {
        #expect(try JobIDPrefix.resolve("a0b1", among: Self.ids) == Self.ids[2])
        #expect(try JobIDPrefix.resolve("batch", among: Self.ids) == "batch_7c1e")
        #expect(try JobIDPrefix.resolve("6571c0de-0000-4000-8000-000000000002", among: Self.ids) == Self.ids[1])
    }

    @Test func anUnknownIdGoesToTheServerAsItIs() throws {
        #expect(
            try JobIDPrefix.resolve("ffffffff-0000-4000-8000-000000000009", among: Self.ids)
                == "ffffffff-0000-4000-8000-000000000009"
        )
        #expect(try JobIDPrefix.resolve("zzzz", among: []) == "zzzz")
    }

    @Test func aKnownShortIdIsTakenWhole() throws {
        #expect(try JobIDPrefix.resolve("j1", among: ["j1", "j10"]) == "j1")
    }

    @Test func aShortPrefixIsAUsageErrorSayingSo() {
        let error = #expect(throws: ShellError.self) { try JobIDPrefix.resolve("657", among: Self.ids) }
        #expect(error?.status == .usage)
        #expect(error?.code == .jobPrefixTooShort)
        #expect(error?.message.contains("at least 4 characters") == true, "\(String(describing: error?.message))")
    }

    @Test func anAmbiguousPrefixListsItsMatchesBounded() {
        let error = #expect(throws: ShellError.self) { try JobIDPrefix.resolve("6571", among: Self.ids) }
        #expect(error?.status == .usage)
        #expect(error?.code == .ambiguousJob)
        #expect(error?.message.contains(Self.ids[0]) == true && error?.message.contains(Self.ids[1]) == true)
        #expect(error?.message.contains(Self.ids[2]) == false)
        let many = (0..<8).map { "beef\($0)000-0000-4000-8000-000000000000" }
        let bounded = #expect(throws: ShellError.self) { try JobIDPrefix.resolve("beef", among: many) }
        #expect(bounded?.message.contains("matches 8 jobs") == true, "\(String(describing: bounded?.message))")
        #expect(bounded?.message.contains("and 3 more") == true)
        #expect(bounded?.message.contains(many[5]) == false)
    }

    @Test func theShownLengthIsTheShortestUniqueFromEight() {
        #expect(JobIDPrefix.shownLength(of: []) == 8)
        #expect(JobIDPrefix.shownLength(of: [Self.ids[2], "batch_7c1e"]) == 8)
        #expect(JobIDPrefix.shownLength(of: Self.ids) == 36)
        #expect(JobIDPrefix.shownLength(of: ["abcdefgh1", "abcdefgh2", "abcdefgh1"]) == 9)
    }

    /// Through the shell: an import on the embedded backend, then `status`, `results` and `cancel`
    /// by a 6-character prefix of its id; `jobs` on a terminal shows the short id, JSON the whole.
    @Test func aPrefixWorksThroughTheShell() async throws {
        try await withShell { harness in
            try harness.write(
                "library.csv",
                "Title,Author,ISBN13\nThe Hunger Games,Suzanne Collins,=\"9780439023481\"\n"
            )
            #expect(await harness.run("import library.csv --watch") == 0, "\(harness.err)")
            let id = try #require(await harness.lastResult()["jobId"]?.stringValue)
            let prefix = String(id.prefix(6))
            #expect(await harness.run("status \(prefix)") == 0, "\(harness.err)")
            #expect(await harness.lastResult()["jobId"]?.stringValue == id)
            #expect(await harness.run("results \(prefix)") == 0, "\(harness.err)")
            #expect(await harness.lastResult()["jobId"]?.stringValue == id)
            #expect(await harness.run("status \(id.prefix(3))") == 2)
            #expect(harness.err.contains("at least 4 characters"), "\(harness.err)")
            #expect(await harness.run("jobs") == 0, "\(harness.err)")
            #expect(harness.out.contains("\"\(id)\""), "JSON in a pipe keeps the whole id: \(harness.out)")
        }
        let terminal = TerminalInfo(stdinIsTerminal: true, stdoutIsTerminal: true, stderrIsTerminal: true, columns: 120)
        try await withShell(terminal: terminal) { harness in
            try harness.write(
                "library.csv",
                "Title,Author,ISBN13\nThe Hunger Games,Suzanne Collins,=\"9780439023481\"\n"
            )
            #expect(await harness.run("import library.csv --watch") == 0, "\(harness.err)")
            let id = try #require(await harness.lastResult()["jobId"]?.stringValue)
            let before = harness.out.count
            #expect(await harness.run("jobs") == 0, "\(harness.err)")
            let table = String(harness.out.dropFirst(before))
            #expect(table.contains(String(id.prefix(8))), "\(table)")
            #expect(!table.contains(id), "a terminal shows the short id: \(table)")
        }
    }
}
