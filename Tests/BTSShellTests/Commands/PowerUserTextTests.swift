import BTSShell
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

/// Texts a power user tripped on: each message says what is wrong in
/// the user's words, and each figure reads as what it is.
@Suite struct PowerUserTextTests {
    static var tableSettings: ShellSettings {
        var settings = ShellSettings()
        settings.output = .table
        return settings
    }

    /// `search title ""` answered the server's "A required parameter is missing.".
    @Test func anEmptySearchSaysWhichQueryIsEmpty() async throws {
        try await withShell { harness in
            #expect(await harness.run("search title \"\"") == 2)
            #expect(harness.err.contains("the title to search for is empty"), "\(harness.err)")
            #expect(!harness.err.contains("A required parameter is missing"), "\(harness.err)")
            #expect(await harness.run("set who \"\"\nsearch author $who") == 2)
            #expect(harness.err.contains("the author to search for is empty"), "\(harness.err)")
        }
    }

    /// At the prompt an error has no file position to name: `<stdin>:1:1:` pretended one.
    @Test func errorsAtThePromptNameNoPlace() async throws {
        try await withShell { harness in
            #expect(await harness.typed("search title dune --limt 5") == 2)
            #expect(!harness.err.contains("<stdin>"), "\(harness.err)")
            #expect(harness.err.hasPrefix("error: unknown option '--limt'"), "\(harness.err)")
            // The caret still points at the word, under the line as typed.
            #expect(harness.err.contains("  search title dune --limt 5\n                    ^~~~~~"), "\(harness.err)")
            #expect(await harness.typed("search isbn 123") != 0)
            #expect(!harness.err.contains("<stdin>"), "\(harness.err)")
        }
        // A script still names its file, line and column.
        try await withShell { harness in
            #expect(await harness.run("echo ok\nsearch title dune --limt 5", name: "s.bts") == 2)
            #expect(harness.err.contains("s.bts:2:19: error: unknown option '--limt'"), "\(harness.err)")
        }
    }

    /// Second walk: an option given to an alias (`hg --limit 1`) was appended quoted, and so
    /// searched for as title words ("No matches.").
    @Test func anAliasPassesOptionsOn() async throws {
        try await withShell { harness in
            #expect(await harness.run("alias hg search title hunger games\nhg --limit 1") == 0, "\(harness.err)")
            #expect(await harness.lastResult()["count"]?.intValue == 1)
            #expect(await harness.lastResult()["query"]?.stringValue == "hunger games")
            // A quoted word stays one word, even one that looks like an option.
            #expect(await harness.run("alias t search title\nt '--limit'") == 0, "\(harness.err)")
            #expect(await harness.lastResult()["query"]?.stringValue == "--limit")
        }
    }

    /// `echo $array` printed the array's JSON.
    @Test func echoPrintsAListAsWords() async throws {
        try await withShell { harness in
            #expect(
                await harness.run("search isbn 9780439023481\nset a ${_.results[0].authors}") == 0,
                "\(harness.err)"
            )
            #expect(await harness.run("set b ${_.results[0].categories}") == 0)
            let before = harness.out.count
            #expect(await harness.run("echo $a\necho ${b}\necho in:$b") == 0, "\(harness.err)")
            let lines = String(harness.out.dropFirst(before)).split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.first == "Suzanne Collins", "\(lines)")
            #expect(lines.dropFirst().first?.hasPrefix("[") == false, "a list's items as words: \(lines)")
            #expect(lines.dropFirst().first?.contains(" ") == true, "\(lines)")
            // Inside other text a list stays JSON, as any value does.
            #expect(lines.last?.hasPrefix("in:[\"") == true, "\(lines)")
        }
    }

    /// `connect` to an unreachable server said "Still using the http://…".
    @Test func aRefusedConnectSaysWhichServerStays() async throws {
        try await LiveServer.running { server in
            let url = "http://127.0.0.1:\(server.port)"
            try await withShell(backend: BackendRequest(apiURL: url)) { harness in
                #expect(await harness.run("search dune --limit 1") == 0, "\(harness.err)")
                let closed = closedPort()
                #expect(await harness.run("connect http://127.0.0.1:\(closed)") == 3)
                #expect(harness.err.contains("Still connected to \(url)."), "\(harness.err)")
                #expect(!harness.err.contains("Still using"), "\(harness.err)")
            }
        }
    }

    /// `status` showed `progress 1` for a finished job.
    @Test func statusShowsProgressAsAPercentage() async throws {
        try await withShell(settings: Self.tableSettings) { harness in
            try harness.write("isbns.txt", "9780439023481\n9780441013593\n")
            #expect(await harness.run("enrich --from isbns.txt --watch\nstatus last") == 0, "\(harness.err)")
            let line = harness.out.split(separator: "\n").first { $0.hasPrefix("progress") }
            #expect(line.map { $0.hasSuffix(" 100%") } == true, "\(harness.out)")
            #expect(await harness.lastResult()["progress"] == .number(1))  // the data stays a fraction
        }
    }

    /// `library set … --read today` left the read count at 0.
    @Test func aReadDateCountsOneRead() async throws {
        try await withShell { harness in
            #expect(await harness.run("search isbn 9780439023481\nsave") == 0, "\(harness.err)")
            #expect(await harness.run("library set 9780439023481 --read today") == 0, "\(harness.err)")
            #expect(await harness.lastResult()["readCount"]?.intValue == 1)
            // Second walk: and it is no longer on to-read (unless --shelf says otherwise).
            #expect(await harness.lastResult()["shelf"]?.stringValue == "read")
            #expect(await harness.run("library set 9780439023481 --shelf paused --read 2024-01-01") == 0)
            #expect(await harness.lastResult()["shelf"]?.stringValue == "paused")
            // A count given with the date wins; a later date keeps the count.
            #expect(await harness.run("library set 9780439023481 --read 2024-01-02 --read-count 3") == 0)
            #expect(await harness.lastResult()["readCount"]?.intValue == 3)
            #expect(await harness.run("library set 9780439023481 --read 2024-05-06") == 0)
            #expect(await harness.lastResult()["readCount"]?.intValue == 3)
        }
    }

    /// An import's error said `ROW 4` for the file's line 5, and `booksCreated 8` stood over
    /// `library: 10 created` with nothing to tell why.
    @Test func importErrorsNameTheFileLineAndTheCountsSayWhose() async throws {
        try await withShell(settings: Self.tableSettings) { harness in
            let csv = try LibraryFixtures.text("goodreads_library_export.csv")
            // A review with a line break before the unmatched row (row 4): its line is 6, not 5.
            let withReview = csv.replacingOccurrences(of: "read it in a weekend.", with: "read it\nin a weekend.")
            #expect(withReview != csv)
            try harness.write("gr.csv", withReview)
            #expect(await harness.run("import gr.csv --watch") == 0, "\(harness.err)")
            let result = await harness.lastResult()
            let error = try #require(result["errors"]?.arrayValue?.first)
            #expect(error["row"]?.intValue == 4)
            let fileLine = withReview.split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.contains("Piranesi") }.map { $0 + 1 }
            #expect(fileLine == 6)
            #expect(error["line"]?.intValue == 6, "\(harness.out)")
            #expect(harness.out.contains("ROW  LINE"), "\(harness.out)")
            #expect(harness.out.contains("booksCreated (server)"), "\(harness.out)")
            #expect(harness.out.contains("library: 10 created"), "\(harness.out)")
            #expect(
                harness.out.contains("(each of the file's 10 rows; the server's counts above are its catalog's)"),
                "\(harness.out)"
            )
        }
    }
}
