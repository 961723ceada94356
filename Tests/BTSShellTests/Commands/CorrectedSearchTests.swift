import BooksTrackContract
import Foundation
import Hummingbird
import ServerTestSupport
import Testing

@testable import BTSShell

/// The line a search prints on stderr when the server searched a corrected query, and only then.
@Suite("search: corrected queries")
struct CorrectedSearchTests {
    @Test func theEmbeddedBackendSaysWhatItSearched() async throws {
        try await withShell { harness in
            #expect(await harness.run("search author tolkein --limit 5") == 0, "\(harness.err)")
            #expect(harness.err.contains("showing results for 'tolkien'\n"), "\(harness.err)")
            let result = await harness.lastResult()
            #expect(result["correctedQuery"] == .string("tolkien"))
            #expect(result["query"] == .string("tolkein"))
            let authors =
                result["results"]?.arrayValue?.compactMap { $0["authors"]?.arrayValue?.first?.stringValue } ?? []
            #expect(!authors.isEmpty && authors.allSatisfy { $0 == "J.R.R. Tolkien" }, "\(authors)")

            #expect(await harness.run("search hunger gmes --limit 5") == 0, "\(harness.err)")
            #expect(harness.err.contains("showing results for 'hunger games'\n"), "\(harness.err)")
            let titles =
                await harness.lastResult()["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
            #expect(titles.contains { $0.hasPrefix("The Hunger Games") }, "\(titles)")
        }
    }

    @Test func exactMatchesPrintNoLine() async throws {
        try await withShell { harness in
            #expect(
                await harness.run("search title dune --limit 3\nsearch the shining stephen king --limit 3") == 0,
                "\(harness.err)"
            )
            #expect(!harness.err.contains("showing results for"), "\(harness.err)")
            let result = await harness.lastResult()
            #expect(result["correctedQuery"] == nil)
            #expect(result["results"]?.arrayValue?.first?["title"]?.stringValue?.hasPrefix("The Shining") == true)
        }
    }

    /// A remote server's empty answer gets no guess; its own correction is shown sanitised.
    @Test func aRemoteServerIsTakenAtItsWord() async throws {
        let empty =
            #"{"success":true,"data":{"works":[],"editions":[],"authors":[],"resultCount":0,"totalResults":0},"metadata":{"timestamp":"2026-11-28T00:00:00Z"}}"#
        let hostile =
            #"{"success":true,"data":{"works":[],"editions":[],"authors":[],"resultCount":0,"totalResults":0,"correctedQuery":"to\u001b[2Jlkien\nx"},"metadata":{"timestamp":"2026-11-28T00:00:00Z"}}"#
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in Reply.json(empty) }
            router.get("/v1/search/author") { _, _ in Reply.json(hostile) }
        }) { server in
            try await withShell(backend: BackendRequest(profile: "tiny")) { harness in
                let config = harness.directory.appendingPathComponent("config/bts")
                try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
                let toml = "[profiles.tiny]\nurl = \"\(server.baseURL.absoluteString)\"\ndialect = \"v1\"\n"
                _ = FileManager.default.createFile(
                    atPath: config.appendingPathComponent("config.toml").path,
                    contents: Data(toml.utf8),
                    attributes: [.posixPermissions: 0o600]
                )
                #expect(await harness.run("search title tolkein") == 0, "\(harness.err)")
                #expect(!harness.err.contains("showing results for"), "\(harness.err)")
                #expect(await harness.lastResult()["correctedQuery"] == nil)
                #expect(await harness.run("search author tolkein") == 0, "\(harness.err)")
                #expect(harness.err.contains("showing results for 'to"), "\(harness.err)")
                #expect(!harness.err.contains("\u{1B}"), "\(harness.err)")
                #expect(!harness.err.contains("lkien\nx"), "\(harness.err)")
            }
        }
    }

    @Test func theLineIsSanitisedAndBounded() {
        #expect(SearchRun.correctionLine("tolkien") == "showing results for 'tolkien'")
        #expect(!SearchRun.correctionLine("a\u{1B}[31mb\nc").contains("\u{1B}"))
        #expect(!SearchRun.correctionLine("a\nb").contains("\n"))
        #expect(
            SearchRun.correctionLine(String(repeating: "x", count: 1000)).count
                < SearchRun.shownCorrectionLength + 40
        )
    }
}
