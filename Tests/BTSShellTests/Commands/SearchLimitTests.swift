import BTSShell
import BooksTrackContract
import Foundation
import Hummingbird
import ServerTestSupport
import Testing

/// `--limit` holds on the client: a server that ignores it (production does) or floods the answer
/// shows `--limit` rows, and the total says how many it sent.
@Suite("search: --limit on the client")
struct SearchLimitTests {
    @Test func aServerSendingAThousandResultsShowsTheLimit() async throws {
        let works = (0..<1000).map { #"{"title":"Flood \#($0)"}"# }.joined(separator: ",")
        let body =
            #"{"success":true,"data":{"works":[\#(works)],"editions":[],"authors":[]},"metadata":{"timestamp":"2026-11-28T00:00:00Z"}}"#
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in Reply.json(body) }
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
                #expect(await harness.run("search title flood --limit 5") == 0, "\(harness.err.prefix(300))")
                let result = await harness.lastResult()
                #expect(result["results"]?.arrayValue?.count == 5)
                #expect(result["count"]?.intValue == 5)
                #expect(result["totalCount"]?.intValue == 1000)
                let before = harness.out.count
                #expect(
                    await harness.run("set output table\nsearch title flood --limit 3") == 0,
                    "\(harness.err.prefix(300))"
                )
                let table = String(harness.out.dropFirst(before))
                #expect(table.contains("(3 of 1000 results"), "\(table.suffix(300))")
                #expect(table.contains("Flood 2") && !table.contains("Flood 3") && !table.contains("Flood 999"))
            }
        }
    }
}
