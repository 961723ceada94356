import AsyncHTTPClient
import BooksTrackContract
import Foundation
import NIOHTTP1
import Testing

@testable import BooksTrackServer

/// Records the stand-in's v3 bodies into `Tests/BooksTrackContractTests/Fixtures/v3/` for the client's
/// decoding tests. Runs only with `BTS_RECORD_V3_FIXTURES=1 swift test --filter V3FixtureRecorder`.
@Suite(
    "v3 fixture recorder", .timeLimit(.minutes(TestTime.minutes(10))),
    .enabled(if: ProcessInfo.processInfo.environment["BTS_RECORD_V3_FIXTURES"] != nil))
struct V3FixtureRecorder {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BooksTrackContractTests/Fixtures/v3", isDirectory: true)

    static func save(_ name: String, _ body: Data) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var text = body
        if let value = try? JSONDecoder().decode(JSONValue.self, from: body),
            let pretty = try? JSONCoding.encoder(sortedKeys: true).encode(value)
        {
            text = pretty
        }
        if text.last != UInt8(ascii: "\n") { text.append(UInt8(ascii: "\n")) }
        try text.write(to: directory.appendingPathComponent(name))
    }

    @Test(arguments: [ServerDialect.contract, .production])
    func record(_ dialect: ServerDialect) async throws {
        let suffix = dialect == .production ? "-production" : ""
        try await V3JobTests.withServer(dialect: dialect, configure: { $0.itemsPerSecond = 20 }) { server in
            let many = (0..<51).map { String(format: "\"978000000%04d\"", $0) }.joined(separator: ",")
            let validation = try await httpRequest(
                .POST, server.base + "/v3/books/enrich", headers: [("Content-Type", "application/json")],
                body: Array("{\"isbns\": [\"043902348X\", \(many)]}".utf8))
            try Self.save("problem-validation-400\(suffix).json", validation.body)
            try Self.save(
                "book\(suffix).json", try await httpRequest(.GET, server.base + "/v3/books/9780618260300").body)
            try Self.save(
                "search-page-1\(suffix).json",
                try await httpRequest(.GET, server.base + "/v3/books/search?q=the&limit=2").body)
            try Self.save(
                "capabilities\(suffix).json", try await httpRequest(.GET, server.base + "/v3/capabilities").body)

            let accepted = try await V3JobTests.upload(server, V3JobTests.threeRows)
            try Self.save("import-accepted\(suffix).json", accepted.body)
            let (id, token) = try V3JobTests.accepted(accepted)
            let stream = try await V3JobTests.readStream(server, "/v3/jobs/imports/\(id)/stream", token: token)
            try Data(stream.text.utf8).write(
                to: Self.directory.appendingPathComponent("sse-import-completed\(suffix).txt"))
            try Self.save(
                "job-status-completed\(suffix).json",
                try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(id)").body)
            try Self.save(
                "job-results\(suffix).json",
                try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(id)/results").body)
            try Self.save(
                "problem-cancel-conflict-409\(suffix).json",
                try await httpRequest(.DELETE, server.base + "/v3/jobs/imports/\(id)").body)
        }
    }
}
