import BooksTrackCatalog
import BooksTrackClient
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

/// Jobs against the real server's job routes (CSV import, batch, SSE with drop faults, cancel).
@Suite struct LiveJobTests {
    static func jobModules(
        _ dir: URL,
        drops: SSEDropFault? = nil,
        itemsPerSecond: Double = 40
    ) -> [any ServerRouteModule] {
        LocalServer.defaultModules.filter { !($0 is JobRoutes) } + [
            JobRoutes(dataDirectory: dir) { config in
                config.itemsPerSecond = itemsPerSecond
                config.sseDropFault = drops
                config.sseRetryMilliseconds = 20
            }
        ]
    }

    static func tempDir() throws -> URL { try makeTempDirectory("client-jobs") }

    /// Rows whose ISBNs exist in the bundled catalog.
    static func csv(rows: Int) throws -> String {
        let catalog = try LiveServer.catalog.get()
        var text = "Title,Author,ISBN13\n"
        var id = 1
        var written = 0
        while written < rows, id < 2000 {
            if let b = try catalog.book(id: id), let isbn = b.isbn13 {
                text +=
                    "\"\(b.title.replacingOccurrences(of: "\"", with: "\"\""))\",\"\(b.authors.first ?? "")\",\(isbn)\n"
                written += 1
            }
            id += 1
        }
        return text
    }

    /// The server cuts the SSE stream three times (drop fault); every progress event is seen once,
    /// then the results arrive.
    @Test func importWatchedThroughThreeCutsSeesEveryEventOnce() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("books.csv")
        try Self.csv(rows: 30).write(to: file, atomically: true, encoding: .utf8)
        let config = ServerConfiguration(port: 0, faultInjectionEnabled: true)
        try await LiveServer.with(
            config,
            modules: Self.jobModules(dir, drops: SSEDropFault(afterEvents: 2, maxDrops: 3))
        ) { _, api in
            let accepted = try await api.importCSV(fileAt: file)
            let options = WatchOptions(maxReconnectionTime: .milliseconds(50))
            var events: [WatchEvent] = []
            for try await e in api.watch(jobID: accepted.value.jobId, options: options) { events.append(e) }
            let updates = events.compactMap { e -> JobProgressUpdate? in
                if case .progress(let u) = e { return u }
                return nil
            }
            let ids = updates.compactMap(\.eventID)
            #expect(Set(ids).count == ids.count)  // no event twice
            let counts = updates.compactMap(\.processedCount)
            #expect(counts == counts.sorted())
            let reconnects = events.filter {
                if case .reconnecting = $0 { return true }
                return false
            }.count
            #expect(reconnects >= 3)
            #expect(
                events.contains {
                    if case .results(.csvImport) = $0 { return true }
                    return false
                }
            )
            if case .finished(.completed) = events.last {
            } else {
                Issue.record("expected completion, got \(String(describing: events.last))")
            }
        }
    }

    /// Batch with a client-made job id; cancel needs the Bearer token (401 without the right one).
    @Test func batchJobAndCancelWithToken() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // One book per 1000 s: the job is still running when cancel arrives however long the test
        // process stalls (a loaded full-suite run once took more than 10 s from submit to cancel).
        try await LiveServer.with(modules: Self.jobModules(dir, itemsPerSecond: 0.001)) { _, api in
            let books = (0..<5).map { BatchBook(title: "Book \($0)") }
            let accepted = try await api.batchEnrich(books: books, jobID: "client-made-1")
            #expect(accepted.value.jobId == "client-made-1")
            do {
                _ = try await api.cancelJob(accepted.value.jobId, token: "wrong")
                Issue.record("expected 401")
            } catch let error as BooksTrackError {
                #expect(error.code == .unauthorized)
            }
            let canceled = try await api.cancelJob(accepted.value.jobId, token: accepted.value.authToken)
            #expect(canceled.value.status == .canceled)
        }
    }
}
