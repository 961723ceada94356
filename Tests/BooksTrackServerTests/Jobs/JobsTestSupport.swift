import AsyncHTTPClient
import BooksTrackCatalog
import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOHTTP1
import Testing

@testable import BooksTrackServer

/// A small in-memory catalog: exact ISBN-13 lookups, word-containment title/author search.
struct JobsFakeCatalog: CatalogQuerying {
    var books: [CatalogBook]

    static let standard = JobsFakeCatalog(books: [
        make(
            1,
            "0439023483",
            "The Hunger Games (The Hunger Games, #1)",
            ["Suzanne Collins"],
            2008,
            original: "The Hunger Games"
        ),
        make(
            2,
            "0439554934",
            "Harry Potter and the Sorcerer's Stone (Harry Potter, #1)",
            ["J.K. Rowling", "Mary GrandPré"],
            1997
        ),
        make(3, "0316015849", "Twilight (Twilight, #1)", ["Stephenie Meyer"], 2005),
        make(4, "0061120081", "To Kill a Mockingbird", ["Harper Lee"], 1960),
        make(5, "0743273567", "The Great Gatsby", ["F. Scott Fitzgerald"], 1925),
        make(6, "0525478817", "The Fault in Our Stars", ["John Green"], 2012),
        make(7, "0618260307", "The Hobbit", ["J.R.R. Tolkien"], 1937),
        make(8, "0316769177", "The Catcher in the Rye", ["J.D. Salinger"], 1951),
        make(9, "0679783261", "Pride and Prejudice", ["Jane Austen"], 1813),
        make(10, "0451524934", "1984", ["George Orwell"], 1949),
        make(11, nil, "The Little Prince", ["Antoine de Saint-Exupéry"], 1943),
    ])

    static func make(
        _ id: Int,
        _ isbn10: String?,
        _ title: String,
        _ authors: [String],
        _ year: Int,
        original: String? = nil
    )
        -> CatalogBook
    {
        CatalogBook(
            id: id,
            goodreadsBookID: 1000 + id,
            goodreadsWorkID: 2000 + id,
            isbn10: isbn10,
            isbn13: isbn10.flatMap { ISBN($0)?.isbn13 },
            title: title,
            originalTitle: original,
            series: nil,
            seriesNumber: nil,
            authors: authors,
            year: year,
            language: "en",
            averageRating: 4,
            ratingsCount: 1_000_000 - id,
            imageURL: "https://images.example/\(id).jpg",
            smallImageURL: nil
        )
    }

    func book(isbn13: String) throws -> CatalogBook? { books.first { $0.isbn13 == isbn13 } }
    func book(id: Int) throws -> CatalogBook? { books.first { $0.id == id } }
    func searchTitle(_ query: String, limit: Int) throws -> CatalogPage {
        try searchAdvanced(title: query, author: nil, limit: limit)
    }
    func searchAuthor(_ name: String, limit: Int) throws -> CatalogPage {
        try searchAdvanced(title: nil, author: name, limit: limit)
    }
    func searchAdvanced(title: String?, author: String?, limit: Int) throws -> CatalogPage {
        func words(_ s: String) -> [String] { CatalogMatcher.normalize(s).split(separator: " ").map(String.init) }
        let hits = books.filter { book in
            let titleWords = Set(words(book.title + " " + (book.originalTitle ?? "")))
            let authorWords = Set(book.authors.flatMap(words))
            let titleOK = title.map { words($0).allSatisfy(titleWords.contains) } ?? true
            let authorOK = author.map { words($0).allSatisfy(authorWords.contains) } ?? true
            return titleOK && authorOK
        }
        return CatalogPage(books: Array(hits.prefix(limit)), total: hits.count)
    }
    func semantic(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] { [] }
    func hybrid(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] { [] }
    func similar(isbn13: String, limit: Int) throws -> [ScoredBook]? { nil }
    func weeklyRecommendations(weekOf: Date, limit: Int) throws -> [Recommendation] { [] }
    var count: Int { books.count }
}

/// Something with a base URL to send requests to.
protocol JobServerAddress: Sendable {
    var base: String { get }
}

extension RunningServer: JobServerAddress {
    var base: String { "http://127.0.0.1:\(port)" }
}

/// A running job server on 127.0.0.1:<port>.
struct JobTestServer: JobServerAddress {
    let port: Int
    let engine: JobEngine
    var base: String { "http://127.0.0.1:\(port)" }
}

/// Builds a router with the job routes (HTTP + WebSocket) and serves it on port 0 for `body`.
func withJobServer(
    directory: URL? = nil,
    clock: any JobClock = SystemJobClock(),
    catalog: any CatalogQuerying = JobsFakeCatalog.standard,
    configure: (inout JobEngineConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (JobTestServer) async throws -> Void
) async throws {
    let temp = try TempDir()
    defer { temp.cleanup() }
    var config = JobEngineConfiguration(dataDirectory: directory ?? temp.url)
    configure(&config)
    let engine = try JobEngine(configuration: config, catalog: catalog, clock: clock)
    let router = Router(context: BasicWebSocketRequestContext.self)
    JobRoutes.register(on: router, engine: engine) { request, _ in
        request.headers[HTTPField.Name("X-Test-Client")!] ?? "127.0.0.1"
    }
    JobRoutes.registerWebSocket(on: router, engine: engine)
    do {
        try await TinyServer.running({ onServerRunning in
            Application(
                router: router,
                server: .http1WebSocketUpgrade(webSocketRouter: router),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: onServerRunning
            )
        }) { server in
            try await body(JobTestServer(port: server.port, engine: engine))
        }
    } catch {
        await engine.shutdown()
        throw error
    }
    await engine.shutdown()
}

struct HTTPResult: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    func json() throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: body) }
    /// `data` of the envelope.
    func data() throws -> JSONValue { try #require(try json()["data"]) }
    func errorCode() throws -> String? { try json()["error"]?["code"]?.stringValue }
}

/// One request with a 30 s deadline, body collected up to 64 MB.
func httpRequest(
    _ method: HTTPMethod,
    _ url: String,
    headers: [(String, String)] = [],
    body: [UInt8]? = nil
) async throws -> HTTPResult {
    var request = HTTPClientRequest(url: url)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
    // 120 s bounds a hang only: loaded full-suite runs (a stalled test process) timed out at 30 s
    // on the 8 MB upload.
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(Int64(TestTime.seconds(120))))
    let buffer = try await response.body.collect(upTo: 64 * 1024 * 1024)
    return HTTPResult(
        status: Int(response.status.code),
        headers: response.headers.map { ($0.name, $0.value) },
        body: Data(buffer.readableBytesView)
    )
}

/// A multipart/form-data body with one part.
func multipart(
    name: String = "file",
    filename: String = "books.csv",
    content: [UInt8],
    boundary: String = "----bts-test-boundary"
)
    -> (contentType: String, body: [UInt8])
{
    var body = Array(
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: text/csv\r\n\r\n"
            .utf8
    )
    body += content
    body += Array("\r\n--\(boundary)--\r\n".utf8)
    return ("multipart/form-data; boundary=\(boundary)", body)
}

/// Uploads a CSV; returns the response.
func uploadCSV(_ server: some JobServerAddress, _ csv: String, client: String = "127.0.0.1") async throws -> HTTPResult
{
    let form = multipart(content: Array(csv.utf8))
    return try await httpRequest(
        .POST,
        server.base + "/api/v2/imports",
        headers: [("Content-Type", form.contentType), ("X-Test-Client", client)],
        body: form.body
    )
}

/// Waits (bounded: 30 s) until the job ends, through the engine's event stream; returns its record.
func waitForEnd(_ engine: JobEngine, _ id: String) async throws -> JobRecord {
    try await withThrowingTaskGroup(of: JobRecord?.self) { group in
        group.addTask {
            guard let subscription = await engine.subscribe(to: id) else { return nil }
            for await _ in subscription.live {}
            return await engine.record(of: id)
        }
        group.addTask {
            try await Task.sleep(for: .seconds(30))
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return try #require(first, "job \(id) did not end within 30 s")
    }
}

/// Everything an SSE connection delivered before it ended, and how it ended.
struct SSECapture: Sendable {
    var text: String
    /// Nil when the server ended the body cleanly; the error when the connection broke.
    var failure: String?
}

/// Opens an SSE stream and reads it to its end (30 s deadline).
func readSSE(
    _ server: some JobServerAddress,
    _ id: String,
    lastEventID: String? = nil,
    accept: String = "text/event-stream",
    stopWhen: @escaping @Sendable (String) -> Bool = { _ in false }
) async throws -> (status: Int, headers: [(String, String)], capture: SSECapture) {
    let url = server.base + "/api/v2/imports/\(id)/stream"
    return try await withDeadline("SSE stream of \(id)") {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: accept)
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        // 120 s bounds a hang only: loaded full-suite runs (a stalled test process) timed out at 30 s
        // on the 8 MB upload.
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(Int64(TestTime.seconds(120))))
        var text = Data()
        var failure: String?
        do {
            for try await chunk in response.body {
                text.append(contentsOf: chunk.readableBytesView)
                if stopWhen(String(decoding: text, as: UTF8.self)) { break }
            }
        } catch {
            failure = String(describing: error)
        }
        return (
            Int(response.status.code), response.headers.map { ($0.name, $0.value) },
            SSECapture(text: String(decoding: text, as: UTF8.self), failure: failure)
        )
    }
}

/// Thrown by `withDeadline` when the operation takes too long (a hang becomes a failure).
struct DeadlineExceeded: Error, CustomStringConvertible {
    var what: String
    var description: String { "\(what) did not finish within the deadline" }
}

/// Runs `body`, cancelling it and throwing `DeadlineExceeded` after `seconds` (scaled by `TestTime`).
func withDeadline<T: Sendable>(
    seconds: Int = 120,
    _ what: String,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: Duration.seconds(seconds).scaled)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlineExceeded(what: what) }
        return value
    }
}

/// A parsed SSE block (event or comment).
struct SSEBlock: Equatable {
    var id: String?
    var event: String?
    var data: String?
    var comments: [String]
}

/// Splits a complete SSE text into blocks (blank-line separated).
func sseBlocks(_ text: String) -> [SSEBlock] {
    text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { block in
        var result = SSEBlock(id: nil, event: nil, data: nil, comments: [])
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                result.comments.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("id: ") {
                result.id = String(line.dropFirst(4))
            } else if line.hasPrefix("event: ") {
                result.event = String(line.dropFirst(7))
            } else if line.hasPrefix("data: ") {
                result.data = String(line.dropFirst(6))
            }
        }
        return result
    }
}

/// Uploads `csv`, waits for the import to complete (expected) and returns its results, read over HTTP.
func importedResults(_ server: JobTestServer, _ csv: String) async throws -> ImportResults {
    let accepted = try await uploadCSV(server, csv)
    let id = try #require(try accepted.data()["jobId"]?.stringValue)
    #expect(try await waitForEnd(server.engine, id).status == .completed)
    let response = try await httpRequest(.GET, server.base + "/api/v2/imports/\(id)/results")
    return try JSONCoding.decoder().decode(ImportResults.self, from: JSONEncoder().encode(try response.data()))
}
