import BooksTrackCatalog
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@testable import BooksTrackClient

/// The mission's API flows against both server dialects: the contract server and
/// `--dialect production` (the deployed backend's shapes, statuses and route gaps as read in
/// `jukasdrj/bendv3`). Real servers on port 0, the real client.
@Suite struct DialectFlowTests {
    /// A server of `dialect` with fast job pacing; jobs in a private directory.
    static func with<T: Sendable>(
        _ dialect: ServerDialect,
        itemsPerSecond: Double = 40,
        configure: @escaping @Sendable (inout JobEngineConfiguration) -> Void = { _ in },
        clock: (any JobClock)? = nil,
        // These flows are the v1/v2 dialect's (the stand-in also speaks v3: see V3* and the binary test).
        api: @escaping (URL) -> APIConfiguration = { url in
            var configuration = APIConfiguration(baseURL: url)
            configuration.dialect = .v1
            return configuration
        },
        _ body: (RunningServer, BooksTrackAPI) async throws -> T
    ) async throws -> T {
        let dir = try LiveJobTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let modules: [any ServerRouteModule] =
            LocalServer.defaultModules.filter { !($0 is JobRoutes) } + [
                JobRoutes(dataDirectory: dir, clock: clock) { config in
                    config.itemsPerSecond = itemsPerSecond
                    config.sseRetryMilliseconds = 20
                    configure(&config)
                }
            ]
        return try await LiveServer.with(
            ServerConfiguration(port: 0, dialect: dialect),
            modules: modules,
            api: api,
            body
        )
    }

    static let dune = "9780340839935"  // Dune (Dune Chronicles #1) in the bundled catalog

    static func isbns(_ count: Int, from first: Int = 1) throws -> [String] {
        let catalog = try LiveServer.catalog.get()
        var found: [String] = []
        var id = first
        while found.count < count, id < 3000 {
            if let isbn = try catalog.book(id: id)?.isbn13 { found.append(isbn) }
            id += 1
        }
        return found
    }

    @Test(arguments: ServerDialect.allCases)
    func searchEveryKind(_ dialect: ServerDialect) async throws {
        try await Self.with(dialect) { _, api in
            let isbn = try #require(try Self.isbns(1).first)
            let byISBN = try await api.searchISBN(isbn)
            #expect(byISBN.value.items.count == 1)
            #expect(byISBN.value.items.first?.authors.isEmpty == false)

            let byTitle = try await api.searchTitle("hunger games", limit: 5)
            #expect(byTitle.value.items.count >= 2)
            // Production lists each author once over all works; with several authors none can be
            // attributed (never guessed), the contract server names each work's.
            if dialect == .contract { #expect(byTitle.value.items.allSatisfy { !$0.authors.isEmpty }) }

            let byAuthor = try await api.searchAuthor("Suzanne Collins", limit: 5)
            #expect(!byAuthor.value.items.isEmpty)
            #expect(byAuthor.value.items.allSatisfy { $0.authors.isEmpty || $0.authors.contains("Suzanne Collins") })
            #expect(await api.usesAuthorFallback == (dialect == .production))

            let advanced = try await api.searchAdvanced(title: "hunger games", author: "Suzanne Collins", limit: 5)
            #expect(advanced.value.items.count >= 2)
            // One author for several works (production's unique list): each work is hers.
            #expect(advanced.value.items.allSatisfy { $0.authors == ["Suzanne Collins"] }, "\(advanced.value.items)")
        }
    }

    @Test(arguments: ServerDialect.allCases)
    func similarSemanticRecommendCaps(_ dialect: ServerDialect) async throws {
        try await Self.with(dialect) { _, api in
            let caps = try await api.fetchCapabilities()
            #expect(caps.value.dialect == (dialect == .production ? .production : .standIn))
            #expect(await api.availability(of: .similarBooks) == .available)
            #expect(await api.availability(of: .semanticSearch) == .available)
            if dialect == .production { #expect(caps.value.limits.maxBatchSize == 50) }

            let similar = try await api.similar(isbn: Self.dune, limit: 5)
            #expect(!similar.value.items.isEmpty)
            #expect(similar.value.items.allSatisfy { $0.isbn != Self.dune })

            // Production's v2 semantic mode reads the wrong field and always answers no results.
            let semantic = try await api.semantic("wizard school", limit: 5)
            #expect(semantic.value.items.isEmpty == (dialect == .production))

            let text = try await api.searchV2("dune", mode: .text, limit: 5)
            #expect(!text.value.results.isEmpty)

            let picks = try await api.weeklyRecommendations(limit: 5)
            #expect(!picks.value.items.isEmpty)
            #expect(picks.value.items.allSatisfy { !$0.title.isEmpty })
        }
    }

    @Test(arguments: ServerDialect.allCases)
    func singleEnrichmentSendsBothKeys(_ dialect: ServerDialect) async throws {
        try await Self.with(dialect) { _, api in
            let book = try await api.enrich(isbn: Self.dune)
            #expect(book.value.title.contains("Dune"))
        }
    }

    /// ISBN-only batch (production refuses `{barcodes}` and empty titles), watched to the end; the
    /// not-found book degrades to a per-item failure, never a failed decode. On production the batch
    /// job is unknown to the SSE route, so the watcher goes over to the WebSocket (token in `?token=`).
    @Test(arguments: ServerDialect.allCases)
    func batchEnrichmentWatchedWithResults(_ dialect: ServerDialect) async throws {
        try await Self.with(dialect, itemsPerSecond: 20) { _, api in
            var isbns = try Self.isbns(4)
            isbns.append("9780000000002")  // valid checksum, not in the catalog
            let accepted = try await api.batchEnrich(isbns: isbns)
            let token = accepted.value.authToken
            #expect(!token.isEmpty)
            var events: [WatchEvent] = []
            for try await event in api.watch(
                jobID: accepted.value.jobId,
                pipeline: .batchEnrichment,
                token: token,
                options: WatchOptions(maxReconnectionTime: .milliseconds(100))
            ) {
                events.append(event)
            }
            let channels = events.compactMap { e -> JobWatchChannel? in
                if case .channel(let c) = e { return c }
                return nil
            }
            if dialect == .production { #expect(channels.contains(.webSocket)) }
            guard case .finished(.completed) = events.last else {
                Issue.record("expected completion, got \(events)")
                return
            }
            let results = events.compactMap { e -> [BatchItemResult]? in
                if case .results(.batch(let rows)) = e { return rows }
                return nil
            }.first
            let rows = try #require(results)
            #expect(rows.count == 5)
            #expect(rows.filter(\.success).count == 4)
            let missing = try #require(rows.first { $0.isbn == "9780000000002" })
            #expect(!missing.success)
            #expect(missing.error != nil)
            #expect(rows.filter(\.success).allSatisfy { $0.enriched != nil })
        }
    }

    /// Batch progress over the WebSocket on both dialects: the contract server's stream is switched
    /// off (three failed connections, then the socket); production's stream does not know batch jobs.
    @Test(arguments: ServerDialect.allCases)
    func batchWatchedOverWebSocket(_ dialect: ServerDialect) async throws {
        let dir = try LiveJobTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let modules: [any ServerRouteModule] =
            LocalServer.defaultModules.filter { !($0 is JobRoutes) } + [
                JobRoutes(dataDirectory: dir) { $0.itemsPerSecond = 10 }
            ]
        let config = ServerConfiguration(port: 0, disabledFeatures: [.sseProgress], dialect: dialect)
        try await LiveServer.with(config, modules: modules) { _, api in
            let accepted = try await api.batchEnrich(isbns: try Self.isbns(4))
            var events: [WatchEvent] = []
            for try await event in api.watch(
                jobID: accepted.value.jobId,
                pipeline: .batchEnrichment,
                token: accepted.value.authToken,
                options: WatchOptions(
                    defaultReconnectionTime: .milliseconds(20),
                    maxReconnectionTime: .milliseconds(50)
                )
            ) {
                events.append(event)
            }
            #expect(
                events.contains {
                    if case .channel(.webSocket) = $0 { return true }
                    return false
                }
            )
            let socketProgress = events.compactMap { e -> JobProgressUpdate? in
                if case .progress(let u) = e, u.channel == .webSocket { return u }
                return nil
            }
            #expect(!socketProgress.isEmpty)
            guard case .finished(.completed) = events.last else {
                Issue.record("expected completion, got \(events)")
                return
            }
            #expect(
                events.contains {
                    if case .results(.batch(let rows)) = $0 { return rows.count == 4 }
                    return false
                }
            )
        }
    }

    /// Watching a production batch job a second time: its socket token was used by the first watch
    /// ("Token already consumed"), so after three refused connections the status route is polled.
    @Test func secondWatchOfAProductionBatchJobPolls() async throws {
        try await Self.with(.production, itemsPerSecond: 4) { _, api in
            let accepted = try await api.batchEnrich(isbns: try Self.isbns(6))
            let options = WatchOptions(pollInterval: .milliseconds(200), defaultReconnectionTime: .milliseconds(20))
            var first: [WatchEvent] = []
            for try await event in api.watch(
                jobID: accepted.value.jobId,
                pipeline: .batchEnrichment,
                token: accepted.value.authToken,
                options: options
            ) {
                first.append(event)
                if case .progress = event { break }  // detach after the first update
            }
            #expect(
                first.contains {
                    if case .channel(.webSocket) = $0 { return true }
                    return false
                }
            )
            var second: [WatchEvent] = []
            for try await event in api.watch(
                jobID: accepted.value.jobId,
                pipeline: .batchEnrichment,
                token: accepted.value.authToken,
                options: options
            ) {
                second.append(event)
            }
            #expect(
                second.contains {
                    if case .channel(.polling) = $0 { return true }
                    return false
                }
            )
            guard case .finished(.completed) = second.last else {
                Issue.record("expected completion, got \(second)")
                return
            }
            #expect(
                second.contains {
                    if case .results(.batch(let rows)) = $0 { return rows.count == 6 }
                    return false
                }
            )
        }
    }

    /// Import with SSE progress and results (production: `progress` events, `completed` at 100,
    /// results only at /v1/jobs/{id}/results).
    @Test(arguments: ServerDialect.allCases)
    func importWatchedOverSSEWithResults(_ dialect: ServerDialect) async throws {
        let dir = try LiveJobTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("books.csv")
        try LiveJobTests.csv(rows: 12).write(to: file, atomically: true, encoding: .utf8)
        try await Self.with(dialect, itemsPerSecond: 30) { _, api in
            let accepted = try await api.importCSV(fileAt: file)
            var events: [WatchEvent] = []
            for try await event in api.watch(jobID: accepted.value.jobId) { events.append(event) }
            #expect(
                events.contains {
                    if case .channel(.sse) = $0 { return true }
                    return false
                }
            )
            let progress = events.compactMap { e -> JobProgressUpdate? in
                if case .progress(let u) = e { return u }
                return nil
            }
            #expect(progress.count >= 2)
            #expect(progress.allSatisfy { ($0.fraction ?? 0) <= 1 })
            guard case .finished(.completed) = events.last else {
                Issue.record("expected completion, got \(events)")
                return
            }
            let status = try await api.jobStatus(accepted.value.jobId)
            #expect(status.value.status == .completed)
            let results = try await api.jobResults(accepted.value.jobId)
            guard case .csvImport(let summary) = results.value else {
                Issue.record("expected import results")
                return
            }
            #expect(summary.books.count + summary.errors.count >= 12)
        }
    }

    /// Cancel: the contract server cancels; production cannot (no v2 route; the v1 route looks the
    /// token up where batch jobs do not keep it) and the client says so plainly.
    @Test(arguments: ServerDialect.allCases)
    func cancelSaysWhatTheServerCanDo(_ dialect: ServerDialect) async throws {
        // Held open: the job is still running when the contract server cancels it.
        try await Self.with(dialect, itemsPerSecond: 0.001) { _, api in
            let accepted = try await api.batchEnrich(isbns: try Self.isbns(5))
            do {
                let canceled = try await api.cancelJob(accepted.value.jobId, token: accepted.value.authToken)
                #expect(dialect == .contract)
                #expect(canceled.value.status == .canceled)
            } catch let error as BooksTrackError {
                #expect(dialect == .production)
                #expect(error.message.contains("cannot cancel"))
                #expect([.api, .notFound, .unavailable].contains(error.category))
            }
            // An unknown job is still "not found" on both.
            do {
                _ = try await api.cancelJob("no-such-job", token: "x")
                Issue.record("expected an error")
            } catch let error as BooksTrackError {
                #expect(error.code == .notFound)
            }
        }
    }

    /// Token refresh: production answers 401 for "not allowed yet"; the client takes it as soft.
    @Test(arguments: ServerDialect.allCases)
    func tokenRefreshSoftRefusalThenRefresh(_ dialect: ServerDialect) async throws {
        // The job engine's clock is moved by hand: no wall-time race on a loaded machine.
        let skew = SynchronizedBox<TimeInterval>(0)
        try await Self.with(
            dialect,
            itemsPerSecond: 0.001,  // held open: its token is refreshed while it runs
            configure: { config in
                config.tokenLifetime = .seconds(3600)
                config.tokenRefreshWindow = .seconds(600)
            },
            clock: ClosureJobClock { Date().addingTimeInterval(skew.value) },
            api: { url in
                // No token keeper: this test refreshes by hand.
                var c = APIConfiguration(baseURL: url)
                c.refreshesJobTokens = false
                return c
            }
        ) { _, api in
            let accepted = try await api.batchEnrich(isbns: try Self.isbns(3))
            let id = accepted.value.jobId
            let token = accepted.value.authToken
            // Too early for the server (1 h token, refreshable in its last 10 min).
            do {
                _ = try await api.refreshJobToken(id, oldToken: token)
                Issue.record("expected a refusal")
            } catch let error as BooksTrackError {
                #expect(error.httpStatus == (dialect == .production ? 401 : 400))
                #expect(JobTokenStore.refreshRetryDelay(after: error) != nil)  // retried later, not given up
            }
            skew.mutate { $0 = 3100 }  // now in the window
            let refreshed = try await api.refreshJobToken(id, oldToken: token)
            #expect(refreshed.value.token != token)
            #expect(await api.jobToken(for: id) == refreshed.value.token)
            // The old token is no good any more.
            do {
                _ = try await api.refreshJobToken(id, oldToken: token)
                Issue.record("expected 401")
            } catch let error as BooksTrackError {
                #expect(error.httpStatus == 401)
                #expect(JobTokenStore.refreshRetryDelay(after: error) == nil)
            }
        }
    }

    /// Production's 429 from the limiter (no envelope, `X-RateLimit-Reset` in ms, no headers on
    /// successes) is a plain rate-limit error, and the class becomes unmetered until then.
    @Test func productionRateLimitIsPlain() async throws {
        var config = ServerConfiguration(port: 0, dialect: .production)
        config.rateLimits[.search] = .perMinute(2)
        try await LiveServer.with(
            config,
            api: { url in
                var c = APIConfiguration(baseURL: url)
                c.retryPolicy.maxAttempts = 1
                return c
            }
        ) { _, api in
            _ = try await api.searchTitle("dune")
            _ = try await api.searchTitle("emma")
            do {
                _ = try await api.searchTitle("persuasion")
                Issue.record("expected 429")
            } catch let error as BooksTrackError {
                #expect(error.code == .rateLimitExceeded)
                #expect(error.retryAfter != nil)
                #expect(!error.message.lowercased().contains("decod"))
            }
        }
    }
}
