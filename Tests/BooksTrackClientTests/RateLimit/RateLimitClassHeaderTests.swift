import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import NIOHTTP1
import Testing

@testable import BooksTrackClient

/// A request's class comes from the contract's classifier; a response's `X-RateLimit-Class` says
/// under which class its limits are booked (the server's word wins).
@Suite(.onWorkThreads) struct RateLimitClassHeaderTests {
    static func headers(_ cls: String, limit: Int, remaining: Int) -> HTTPFields {
        [
            HTTPField.Name("X-RateLimit-Class")!: cls, HTTPField.Name("X-RateLimit-Limit")!: "\(limit)",
            HTTPField.Name("X-RateLimit-Remaining")!: "\(remaining)",
        ]
    }

    /// A budget's header-learned numbers.
    static func numbers(_ budget: RateLimitBudget) -> String {
        "\(budget.limit.map(String.init) ?? "-")/\(budget.remaining.map(String.init) ?? "-") \(budget.source)"
    }
    static func numbers(limit: Int, remaining: Int) -> String { "\(limit)/\(remaining) headers" }

    /// A tiny server on port 0 whose class header differs from the classifier's class (`search`
    /// for all three routes): a contract class, a class outside the contract, and garbage.
    @Test func theResponsesClassHeaderDecidesWhereTheLimitsAreBooked() async throws {
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in
                Reply.json(okSearch, headers: Self.headers("semantic", limit: 5, remaining: 2))
            }
            router.get("/v1/search/author") { _, _ in
                Reply.json(okSearch, headers: Self.headers("partner-tier", limit: 7, remaining: 6))
            }
            router.get("/v1/search/advanced") { _, _ in
                Reply.json(okSearch, headers: Self.headers("no such/class", limit: 42, remaining: 41))
            }
        }) { server in
            let api = makeAPI(server.baseURL)
            #expect(RequestSpec(.GET, "/v1/search/title").rateLimitClass == .search)

            let title = try await api.searchTitle("dune")
            #expect(title.info.rateLimitClass == .semantic)
            #expect(Self.numbers(await api.budget(for: .semantic)) == Self.numbers(limit: 5, remaining: 2))
            #expect(await api.budget(for: .search).source != .headers)

            let author = try await api.searchAuthor("herbert")
            #expect(author.info.rateLimitClass == .other("partner-tier"))
            #expect(Self.numbers(await api.budget(for: "partner-tier")) == Self.numbers(limit: 7, remaining: 6))
            #expect(await api.budget(for: .search).source != .headers)

            // Not a class name: the classifier's class stands.
            let advanced = try await api.searchAdvanced(title: "dune", author: nil)
            #expect(advanced.info.rateLimitClass == .search)
            #expect(Self.numbers(await api.budget(for: .search)) == Self.numbers(limit: 42, remaining: 41))
            await api.shutdown()
        }
    }

    /// Against the real local server the header and the classifier agree on every search mode.
    @Test func theLocalServerNamesTheClassifiersClass() async throws {
        try await LiveServer.with { _, api in
            let title = try await api.searchTitle("hunger games")
            #expect(title.info.rateLimitClass == .search)
            let semantic = try await api.searchV2("a boy wizard at school", mode: .semantic, limit: 3)
            #expect(semantic.info.rateLimitClass == .semantic)
            #expect(await api.budget(for: .semantic).source == .headers)
        }
    }

    /// No request in the client names its class by hand: the classifier is called in one place
    /// (`BooksTrackAPI.rateLimitClass`, which `RequestSpec.rateLimitClass` reads) and no
    /// `RequestSpec(...)` is given a class.
    @Test func noRequestSetsAClassByHand() throws {
        let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/BooksTrackClient")
        let files = try #require(FileManager.default.enumerator(at: client, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 30)
        var classifierCalls: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let place = "\(file.lastPathComponent):\(number + 1)"
                if line.contains("BudgetClass.classify(") { classifierCalls.append(place) }
                if line.contains("RequestSpec(") {
                    #expect(!line.contains("rateLimitClass"), "\(place) sets a class by hand: \(line)")
                }
                #expect(!line.contains("rateLimitClass: ."), "\(place) names a class literal: \(line)")
            }
        }
        #expect(classifierCalls.count == 1, "\(classifierCalls)")
        #expect(classifierCalls.first?.hasPrefix("BooksTrackAPI+Budgets.swift:") == true, "\(classifierCalls)")
    }
}
