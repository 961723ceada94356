import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Synchronization
import Testing

@testable import BooksTrackServer

@Suite("Job engine", .timeLimit(.minutes(TestTime.minutes(10))))
struct JobEngineTests {
    static let csv = Array("Title,Author,ISBN13\nThe Hobbit,Tolkien,9780618260300\n1984,Orwell,\n".utf8)

    func engine(
        _ dir: URL,
        clock: any JobClock = SystemJobClock(),
        _ configure: (inout JobEngineConfiguration) -> Void = { _ in }
    )
        throws -> JobEngine
    {
        var config = JobEngineConfiguration(dataDirectory: dir)
        configure(&config)
        return try JobEngine(configuration: config, catalog: JobsFakeCatalog.standard, clock: clock)
    }

    @Test func importRunsToCompletionWithEventLog() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let engine = try engine(temp.url)
        let record = try await engine.submitImport(csv: Self.csv, owner: "a")
        let done = try await waitForEnd(engine, record.id)
        #expect(done.status == .completed)
        #expect(done.processedCount == 2 && done.totalCount == 2 && done.successCount == 2)
        let events = await engine.events(of: record.id)
        #expect(events.map(\.status) == [.initialized, .processing, .processing, .completed])
        #expect(events.map(\.sequence) == [1, 2, 3, 4])
        #expect(events.allSatisfy { $0.id.hasSuffix("-\($0.sequence)") })
        await engine.shutdown()
    }

    /// With `workersOnOwnThread` (as `bts serve` runs, `LocalServer.foreground`) the workers run on
    /// `JobExecutor`'s thread, never where the caller (a request handler on an event loop) runs:
    /// each catalog lookup of an import notes where it ran.
    @Test func workersRunOnTheirOwnThreads() async throws {
        final class WhereCatalog: CatalogQuerying {
            let seen = Mutex<[Bool]>([])
            func book(isbn13: String) throws -> CatalogBook? {
                seen.withLock { $0.append(JobExecutor.isCurrent) }
                return try JobsFakeCatalog.standard.book(isbn13: isbn13)
            }
            func book(id: Int) throws -> CatalogBook? { try JobsFakeCatalog.standard.book(id: id) }
            func searchTitle(_ query: String, limit: Int) throws -> CatalogPage {
                seen.withLock { $0.append(JobExecutor.isCurrent) }
                return try JobsFakeCatalog.standard.searchTitle(query, limit: limit)
            }
            func searchAuthor(_ name: String, limit: Int) throws -> CatalogPage {
                try JobsFakeCatalog.standard.searchAuthor(name, limit: limit)
            }
            func searchAdvanced(title: String?, author: String?, limit: Int) throws -> CatalogPage {
                seen.withLock { $0.append(JobExecutor.isCurrent) }
                return try JobsFakeCatalog.standard.searchAdvanced(title: title, author: author, limit: limit)
            }
            func semantic(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] { [] }
            func hybrid(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] { [] }
            func similar(isbn13: String, limit: Int) throws -> [ScoredBook]? { nil }
            func weeklyRecommendations(weekOf: Date, limit: Int) throws -> [Recommendation] { [] }
            var count: Int { JobsFakeCatalog.standard.count }
        }
        let temp = try TempDir()
        defer { temp.cleanup() }
        let catalog = WhereCatalog()
        var configuration = JobEngineConfiguration(dataDirectory: temp.url)
        configuration.workersOnOwnThread = true
        let engine = try JobEngine(configuration: configuration, catalog: catalog)
        #expect(!JobExecutor.isCurrent)
        let record = try await engine.submitImport(csv: Self.csv, owner: "a")
        #expect(try await waitForEnd(engine, record.id).status == .completed)
        let seen = catalog.seen.withLock { $0 }
        #expect(!seen.isEmpty && seen.allSatisfy { $0 }, "lookups on the job threads: \(seen)")
        await engine.shutdown()
        #expect(LocalServer.foreground(ServerConfiguration()).jobs.workersOnOwnThread)
        #expect(
            JobEngineConfiguration(server: LocalServer.foreground(ServerConfiguration()), dataDirectory: temp.url)
                .workersOnOwnThread
        )
    }

    @Test func resultsExpireAfterTheTTL() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let clock = ManualJobClock()
        let engine = try engine(temp.url, clock: clock)
        let record = try await engine.submitImport(csv: Self.csv, owner: "a")
        _ = try await waitForEnd(engine, record.id)
        clock.advance(by: .seconds(3599))
        guard case .ready = await engine.results(of: record.id) else {
            Issue.record("results should still be there after 59:59")
            return
        }
        clock.advance(by: .seconds(1))
        guard case .notFound = await engine.results(of: record.id) else {
            Issue.record("results should be gone after 1 h")
            return
        }
        #expect(await engine.record(of: record.id) == nil)
        // Forgotten on disk too: a new engine does not see it.
        await engine.shutdown()
        let reopened = try self.engine(temp.url, clock: clock)
        #expect(await reopened.record(of: record.id) == nil)
        await reopened.shutdown()
    }

    @Test func batchResultsLiveTwoHours() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let clock = ManualJobClock()
        let engine = try engine(temp.url, clock: clock)
        let (record, _) = try await engine.submitBatch(
            items: [BatchBook(title: "The Hobbit")],
            clientJobID: nil,
            owner: "a"
        )
        _ = try await waitForEnd(engine, record.id)
        clock.advance(by: .seconds(7199))
        guard case .ready = await engine.results(of: record.id) else {
            Issue.record("batch results should still be there")
            return
        }
        clock.advance(by: .seconds(1))
        guard case .notFound = await engine.results(of: record.id) else {
            Issue.record("batch results should be gone after 2 h")
            return
        }
        await engine.shutdown()
    }

    @Test func stateSurvivesARestartAndRunningJobsFail() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let first = try engine(temp.url)
        let finished = try await first.submitImport(csv: Self.csv, owner: "a")
        _ = try await waitForEnd(first, finished.id)
        await first.shutdown()

        // A slow job, interrupted by shutdown.
        let slowEngine = try engine(temp.url) { $0.itemsPerSecond = 0.001 }  // held open until the shutdown
        let slow = try await slowEngine.submitImport(csv: Self.csv, owner: "a")
        await slowEngine.shutdown()

        let second = try engine(temp.url)
        let finishedAgain = try #require(await second.record(of: finished.id))
        #expect(finishedAgain.status == .completed)
        #expect(finishedAgain.authToken == finished.authToken)
        guard case .ready(_, let body) = await second.results(of: finished.id) else {
            Issue.record("results lost across restart")
            return
        }
        let results = try JSONCoding.decoder().decode(ImportResults.self, from: body)
        #expect(results.booksCreated == 2)
        #expect(await second.events(of: finished.id).count == 4)

        let failed = try #require(await second.record(of: slow.id))
        #expect(failed.status == .failed)
        #expect(failed.error?.code == .unknownError)
        #expect(failed.error?.message.hasPrefix("server restarted") == true)
        #expect(await second.events(of: slow.id).last?.status == .failed)
        await second.shutdown()
    }

    @Test func concurrentJobsPerClientAreBounded() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let engine = try engine(temp.url) {
            $0.itemsPerSecond = 0.001  // held open: no item ends during the test
            $0.maxConcurrentJobsPerClient = 2
        }
        _ = try await engine.submitImport(csv: Self.csv, owner: "a")
        _ = try await engine.submitImport(csv: Self.csv, owner: "a")
        await #expect(throws: JobEngine.SubmissionError.tooManyConcurrentJobs(limit: 2)) {
            try await engine.submitImport(csv: Self.csv, owner: "a")
        }
        // Another client is not affected.
        _ = try await engine.submitImport(csv: Self.csv, owner: "b")
        await engine.shutdown()
    }

    @Test func batchWithClientJobIDIsIdempotent() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let engine = try engine(temp.url)
        let items = [BatchBook(title: "The Hobbit"), BatchBook(title: "Nope")]
        let (first, reused1) = try await engine.submitBatch(items: items, clientJobID: "client-1", owner: "a")
        let (again, reused2) = try await engine.submitBatch(items: items, clientJobID: "client-1", owner: "a")
        #expect(!reused1 && reused2)
        #expect(first.id == "client-1" && again.id == "client-1" && again.authToken == first.authToken)
        await #expect(throws: JobEngine.SubmissionError.jobIDInUse("client-1")) {
            try await engine.submitBatch(items: items, clientJobID: "client-1", owner: "someone-else")
        }
        await engine.shutdown()
    }

    @Test func tokenRefreshOnlyInTheLastHalfHour() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let clock = ManualJobClock()
        let engine = try engine(temp.url, clock: clock) { $0.itemsPerSecond = 0.01 }
        let record = try await engine.submitImport(csv: Self.csv, owner: "a")
        #expect(
            await engine.refreshToken(of: record.id, oldToken: record.authToken) == .tooEarly(secondsUntilAllowed: 5400)
        )
        #expect(
            await engine.refreshToken(of: record.id, oldToken: "wrong")
                == .unauthorized(reason: "oldToken does not match this job")
        )
        clock.advance(by: .seconds(5400))
        guard
            case .refreshed(let token, let expiresIn) = await engine.refreshToken(
                of: record.id,
                oldToken: record.authToken
            )
        else {
            Issue.record("refresh should succeed in the last 30 min")
            return
        }
        #expect(expiresIn == 7200 && token != record.authToken && token.count == 64)
        #expect(await engine.checkToken(record.authToken, for: record.id) == .invalid)
        #expect(await engine.checkToken(token, for: record.id) == .valid)
        clock.advance(by: .seconds(7200))
        #expect(await engine.checkToken(token, for: record.id) == .expired)
        await engine.shutdown()
    }

    @Test func tokensAreRandomAndCompared() {
        let a = JobEngine.makeToken()
        let b = JobEngine.makeToken()
        #expect(a.count == 64 && b.count == 64 && a != b)
        #expect(JobEngine.constantTimeEqual(a, a))
        #expect(!JobEngine.constantTimeEqual(a, b))
        #expect(!JobEngine.constantTimeEqual(a, String(a.dropLast())))
    }
}
