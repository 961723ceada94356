import AsyncHTTPClient
import BooksTrackContract
import BooksTrackSupport
import Foundation
import TestSupport
import Testing

@testable import BooksTrackClient

/// The client against servers that misbehave on purpose (HostileServer on port 0) and against
/// addresses where nothing answers: no crash, bounded time per kind, one plain sentence.
@Suite("Hostile servers")
struct HostileServerTests {
    /// Runs one title search and returns the error it failed with, and how long it took.
    ///
    /// No test here asserts a duration (the whole test process can stall for minutes on this shared
    /// machine): attempt counts prove "no retry", and the client's configuration proves "no pool
    /// retry of a refused connect"; the times are measured by hand.
    func failure(
        _ url: URL,
        _ tweak: (inout APIConfiguration) -> Void = { _ in }
    ) async -> (BooksTrackError?, Duration) {
        let api = makeAPI(url) { config in
            config.sleep = { _ in }  // retry waits cost nothing; the attempts still happen
            // Generous: a request that should get an answer must not end as a time-out because the
            // test process stalled (seen once: the redirect loop timed out at 25 s in a full run).
            config.connectTimeout = Duration.seconds(60).scaled
            config.timeout = Duration.seconds(90).scaled
            tweak(&config)
        }
        let clock = ContinuousClock()
        let start = clock.now
        var caught: BooksTrackError?
        do { _ = try await api.searchTitle("dune") } catch { caught = error }
        let elapsed = clock.now - start
        await api.shutdown()
        return (caught, elapsed)
    }

    // MARK: ports above 65535 (crashed with SIGILL)

    @Test(arguments: ["http://127.0.0.1:65536", "http://127.0.0.1:99999", "http://user:secret@127.0.0.1:700000/x"])
    func portOutOfRangeIsRefusedBeforeAnyConnect(_ text: String) async throws {
        let url = try #require(URL(string: text))
        let (error, _) = await failure(url)
        let caught = try #require(error)
        #expect(caught.kind == .invalidInput)
        #expect(caught.message.contains("1–65535"))
        #expect(!caught.message.contains("secret"))
        #expect(caught.attempts == 1)
    }

    @Test func serverURLValidation() {
        #expect((try? ServerURL.parse("http://127.0.0.1:8787").get()) != nil)
        #expect((try? ServerURL.parse("https://[::1]:443/api").get()) != nil)
        #expect((try? ServerURL.parse("http://host:").get()) != nil)
        for bad in [
            "http://127.0.0.1:65536", "http://h:0", "http://h:-1", "http://h:8a", "ftp://h", "http://",
            "http://:80", "http://[::1", "http://h:99999999999999999999999", "http://a b", "http://h\u{1B}]0;x",
        ] {
            #expect((try? ServerURL.parse(bad).get()) == nil, "accepted \(bad)")
        }
        guard case .failure(let problem) = ServerURL.parse("http://alice:hunter2@h:70000") else {
            Issue.record("accepted a bad port")
            return
        }
        #expect(!problem.message.contains("hunter2"))
        #expect(problem.message.contains("***"))
    }

    /// `check` (which skips Foundation's parse for plain URLs) gives `parse`'s verdict and sentence
    /// on request-shaped URLs and fuzzed ones.
    @Test func checkAgreesWithParse() {
        let bases = [
            "http://127.0.0.1:8787", "https://api.example.com", "http://u:p@h:1", "http://[::1]:80", "http://h:65536",
            "http://h:0", "ftp://h", "http://", "http://:80", "HTTP://H", "http://h_x.local:99",
            "http://u:p:q@h:2", "http://a@b@h", "http://@h", "http://u@[::1]:3", "http://h:08080", "http://h.:1",
        ]
        let pieces = [
            "/v1/search/isbn?isbn=9780439023481", "/a%20b", "/%zz", "/%4", "?q=a+b&mode=semantic", "/[x]", "#frag",
            "/{id}", "/ü", "/a|b", "/~user/", "/'q'", "/a\\b", "/^", "/`", "/<>", "/\"", "?q=%E2%9C%93", "/;p=1", "@",
            ":", ":x@", "@@", "%41",
        ]
        var rng = SplitMix64(seed: 16)
        for _ in 0..<5_000 {
            var text = bases.randomElement(using: &rng) ?? ""
            for _ in 0..<Int.random(in: 0...3, using: &rng) { text += pieces.randomElement(using: &rng) ?? "" }
            let parsed: ServerURL.Problem?
            switch ServerURL.parse(text) {
            case .success: parsed = nil
            case .failure(let problem): parsed = problem
            }
            #expect(ServerURL.check(text) == parsed, "\(text)")
        }
    }

    /// `check(_:under:)` (a prefix comparison and a byte scan against a base checked once) gives
    /// `check`'s verdict on URLs that extend the base, nearly extend it, or share only a prefix.
    @Test func checkUnderBaseAgreesWithCheck() {
        let bases = [
            "http://127.0.0.1:8787", "http://127.0.0.1:8787/", "https://api.example.com/api", "http://u:p@h:1",
            "http://[::1]:80", "http://h:65536", "http://h_x.local:99", "http://h:08080", "http://h.:1",
            "http://h:1/p%20q", "http://ü.example", "http://a@b@h", "http://h:1?x", "ftp://h",
        ]
        #expect(ServerURL.CheckedBase("http://127.0.0.1:8787/") != nil)
        #expect(ServerURL.CheckedBase("http://[::1]:80") == nil, "an IPv6 base is checked whole each time")
        #expect(ServerURL.CheckedBase("http://h:65536") == nil)
        let pieces = [
            "/v1/search/isbn?isbn=9780439023481", "/a%20b", "/%zz", "/%4", "%4", "?q=a+b", "/[x]", "#frag", "/ü",
            "/a b", "/a\tb", "/\u{85}", "/a|b", "/~u/", ":99", "@h", "9", "/", "//x", "/;p=1", "%41", "/\\", ".",
        ]
        var rng = SplitMix64(seed: 161)
        for base in bases {
            let checked = ServerURL.CheckedBase(base)
            var trimmed = base
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            for _ in 0..<400 {
                var text =
                    Bool.random(using: &rng) ? trimmed : String(trimmed.dropLast(Int.random(in: 0...3, using: &rng)))
                for _ in 0..<Int.random(in: 0...3, using: &rng) { text += pieces.randomElement(using: &rng) ?? "" }
                #expect(ServerURL.check(text, under: checked) == ServerURL.check(text), "\(base) → \(text)")
            }
        }
    }

    /// The byte scan for spaces and control characters agrees with the Unicode definition
    /// (category Cc, or a space) on ASCII, C1 controls, other scalars and fuzzed strings.
    @Test func spaceOrControlScanAgreesWithUnicodeCategories() {
        func reference(_ text: String) -> Bool {
            text.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == " " }
        }
        let pool: [Unicode.Scalar] =
            (0...0x7F).compactMap(Unicode.Scalar.init)
            + [0x80, 0x85, 0x9F, 0xA0, 0xAD, 0x2028, 0x200B, 0xFEFF, 0x1F600].compactMap(Unicode.Scalar.init)
        for scalar in pool {
            let text = "http://h/" + String(Character(scalar))
            #expect(ServerURL.hasSpaceOrControl(text) == reference(text), "scalar \(scalar.value)")
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...12, using: &rng)
            let text = String(
                String.UnicodeScalarView(
                    (0..<length).map { _ in
                        Bool.random(using: &rng)
                            ? Unicode.Scalar(UInt8.random(in: 0x21...0x7E, using: &rng))
                            : pool.randomElement(using: &rng)!
                    }
                )
            )
            #expect(ServerURL.hasSpaceOrControl(text) == reference(text), "\(text.unicodeScalars.map(\.value))")
        }
    }

    /// The byte-level query encoder agrees with Foundation's `addingPercentEncoding` (alphanumerics
    /// and `-._~` allowed) on ASCII, Latin-1, CJK, emoji and fuzzed strings.
    @Test func percentEncodingAgreesWithFoundation() {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let pool: [Unicode.Scalar] =
            (0x20...0x7E).compactMap(Unicode.Scalar.init)
            + [0xE9, 0xDC, 0xA0, 0x65E5, 0x672C, 0x1F600, 0x2028].compactMap(Unicode.Scalar.init)
        var rng = SystemRandomNumberGenerator()
        for round in 0..<3_000 {
            let length = round < pool.count ? 1 : Int.random(in: 0...16, using: &rng)
            let text =
                round < pool.count
                ? String(Character(pool[round]))
                : String(String.UnicodeScalarView((0..<length).map { _ in pool.randomElement(using: &rng)! }))
            #expect(RequestSpec.encode(text) == text.addingPercentEncoding(withAllowedCharacters: allowed), "\(text)")
        }
    }

    /// `X-Response-Time` in the forms servers send it.
    @Test func responseTimeHeaderForms() {
        #expect(ResponseReading.milliseconds("12") == 12)
        #expect(ResponseReading.milliseconds("12ms") == 12)
        #expect(ResponseReading.milliseconds(" 3.5 MS ") == 3.5)
        #expect(ResponseReading.milliseconds("12 ms") == 12)
        #expect(ResponseReading.milliseconds("0mS") == 0)
        #expect(ResponseReading.milliseconds("\t7Ms\t") == 7)
        for bad in ["fast", "", "ms", "12s", "\u{1B}[31m", "12m", "12 m s", "12ns", "12ｍｓ", "12m\u{301}s", "12\u{0}ms"]
        {
            #expect(ResponseReading.milliseconds(bad) == nil, "\(bad)")
        }
    }

    // MARK: redirects

    @Test(arguments: ["http://127.0.0.1:99999/x", "http://127.0.0.1:65536/", "//127.0.0.1:123456/y"])
    func redirectToAnImpossiblePortIsAnErrorNotACrash(_ location: String) async throws {
        try await HostileServer.with({ _ in HostileServer.redirect(to: location, status: "301 Moved Permanently") }) {
            server in
            let (error, _) = await failure(server.baseURL)
            let caught = try #require(error)
            #expect(caught.message.hasPrefix("The server redirected to an unusable address"))
            #expect(caught.attempts == 1)
            #expect(server.received.count == 1)
        }
    }

    @Test func redirectLoopStopsWithAPlainSentence() async throws {
        try await HostileServer.with({ head in
            HostileServer.redirect(to: head.contains("/again") ? "/v1/search/title?q=dune" : "/again")
        }) { server in
            let (error, _) = await failure(server.baseURL)
            let caught = try #require(error)
            #expect(caught.message == "The server redirected in a loop; not followed.")
            #expect(!caught.message.contains("Retrying"))
            #expect(caught.attempts == 1)
            #expect(server.received.count == 2)
        }
    }

    @Test func aGoodRedirectIsFollowedWithoutCredentialsElsewhere() async throws {
        try await HostileServer.with({ head in
            head.hasPrefix("GET /moved") ? HostileServer.json(okSearch) : HostileServer.redirect(to: "/moved")
        }) { server in
            let api = makeAPI(server.baseURL) { $0.bearerToken = "tok-123" }
            let response = try await api.searchTitle("dune")
            #expect(response.value.items.isEmpty)
            #expect(server.received.count == 2)
            // Same origin: the token goes along.
            #expect(server.received[1].contains("Bearer tok-123"))
            await api.shutdown()
        }
    }

    // MARK: bounded bodies over a socket

    /// A title search's items, or nil with the error recorded; the client is shut down either way
    /// (a client left running traps at deinit and would take the whole test process down).
    static func titleSearchItems(_ api: BooksTrackAPI) async -> [SearchResultItem]? {
        var items: [SearchResultItem]?
        do { items = try await api.searchTitle("dune").value.items } catch { Issue.record("\(error.message)") }
        await api.shutdown()
        return items
    }

    /// A body the server declares larger than the client's limit fails before it is read; one
    /// streamed (chunked) past the limit fails when it passes it; both as one plain sentence.
    @Test(arguments: [false, true])
    func aBodyPastTheLimitIsRefused(chunked: Bool) async throws {
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 8 * 1024)
        var head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        var bytes: [UInt8]
        if chunked {
            head += "Transfer-Encoding: chunked\r\n\r\n"
            bytes = Array(head.utf8)
            for start in stride(from: 0, to: body.count, by: 1024) {
                bytes += Array("400\r\n".utf8) + body[start..<start + 1024] + Array("\r\n".utf8)
            }
            bytes += Array("0\r\n\r\n".utf8)
        } else {
            bytes = Array((head + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
        }
        try await HostileServer.with({ [bytes] _ in .raw(bytes) }) { server in
            let (error, _) = await failure(server.baseURL) { $0.maxBodyBytes = 4 * 1024 }
            let caught = try #require(error)
            #expect(caught.kind == .bodyTooLarge)
            #expect(caught.message == "The response is larger than the client's limit of 4 KB.")
            #expect(caught.attempts == 1)
        }
    }

    /// A body within the limit arrives whole whichever way it is framed.
    @Test(arguments: [false, true])
    func aBodyWithinTheLimitArrivesWhole(chunked: Bool) async throws {
        let body = Array(okSearch.utf8)
        var bytes = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n".utf8)
        if chunked {
            bytes += Array("Transfer-Encoding: chunked\r\n\r\n".utf8)
            for start in stride(from: 0, to: body.count, by: 7) {
                let part = body[start..<min(body.count, start + 7)]
                bytes += Array("\(String(part.count, radix: 16))\r\n".utf8) + part + Array("\r\n".utf8)
            }
            bytes += Array("0\r\n\r\n".utf8)
        } else {
            bytes += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        try await HostileServer.with({ [bytes] _ in .raw(bytes) }) { server in
            let api = makeAPI(server.baseURL) { $0.maxBodyBytes = body.count }
            let items = await Self.titleSearchItems(api)
            #expect(items?.isEmpty == true)
        }
    }

    /// A redirect's body is read and dropped, whatever its size: the redirect is still followed.
    @Test func aRedirectsLargeBodyIsDropped() async throws {
        let filler = String(repeating: "<p>moved</p>", count: 2_000)
        try await HostileServer.with({ head in
            head.hasPrefix("GET /moved")
                ? HostileServer.json(okSearch)
                : .raw(
                    Array(
                        "HTTP/1.1 302 Found\r\nLocation: /moved\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: \(filler.utf8.count)\r\n\r\n\(filler)"
                            .utf8
                    )
                )
        }) { server in
            let api = makeAPI(server.baseURL) { $0.maxBodyBytes = 4 * 1024 }
            let items = await Self.titleSearchItems(api)
            #expect(items?.isEmpty == true)
            #expect(server.received.count == 2)
        }
    }

    // MARK: failure paths bounded by kind

    @Test func refusedConnectFailsAtOnceWithoutRetries() async throws {
        let port = closedPort()
        let (error, _) = await failure(try #require(URL(string: "http://127.0.0.1:\(port)")))
        let caught = try #require(error)
        #expect(caught.kind == .connection)
        #expect(caught.category == .network)
        #expect(caught.attempts == 1)
        #expect(caught.message == "Cannot connect to 127.0.0.1: the connection was refused (is the server running?).")
        #expect(caught.userDetail == nil)  // errno text stays in the trace
    }

    @Test func theConnectionPoolDoesNotRetryARefusedConnect() {
        // AHC's default retries a failed connect with backoff until the connect timeout (~5 s per
        // attempt, 31 s to exit 3 with bts's own retries).
        let config = HTTPTransport.clientConfiguration(APIConfiguration(baseURL: URL(fileURLWithPath: "/")))
        #expect(config.connectionPool.retryConnectionEstablishment == false)
    }

    @Test func unresolvableNameFailsAtOnce() async throws {
        let (error, _) = await failure(try #require(URL(string: "http://no-such-host-bts-test.invalid:8080")))
        let caught = try #require(error)
        #expect(caught.kind == .dns)
        #expect(caught.category == .network)
        #expect(caught.attempts == 1)
        #expect(caught.message == "Cannot resolve the host name no-such-host-bts-test.invalid.")
    }

    @Test func timeoutEndsAtTheConfiguredDeadlineNotAMultiple() async throws {
        try await HostileServer.with({ _ in .silence }) { server in
            let (error, _) = await failure(server.baseURL) { $0.timeout = .seconds(1) }
            let caught = try #require(error)
            #expect(caught.kind == .timeout)
            #expect(caught.attempts == 1)
            #expect(caught.message == "The request to 127.0.0.1 timed out after 1 s.")
            // One deadline, one attempt (no multiple): the message names the configured deadline.
            #expect(server.received.count == 1)
        }
    }

    @Test func tlsToAPlainServerIsNotRetried() async throws {
        try await HostileServer.with({ _ in HostileServer.json(okSearch) }) { server in
            let url = try #require(URL(string: "https://127.0.0.1:\(server.port)"))
            let (error, _) = await failure(url)
            let caught = try #require(error)
            #expect(caught.attempts == 1)
            #expect([.network, .api, .notFound, .unavailable].contains(caught.category))
            #expect(!caught.message.contains("Retrying"))
        }
    }

    @Test func garbageInsteadOfHTTPIsOnePlainSentence() async throws {
        try await HostileServer.with({ _ in .raw(Array("SSH-2.0-OpenSSH\r\n\u{1B}[2J garbage\r\n\r\n".utf8)) }) {
            server in
            let (error, _) = await failure(server.baseURL)
            let caught = try #require(error)
            #expect(caught.message == "127.0.0.1 did not answer with HTTP (is it the right address and port?).")
            #expect(caught.category == .network)
            #expect(caught.attempts == 1)
            #expect(!caught.message.contains("error set"))
            #expect(!caught.message.contains("errno"))
            #expect(!caught.message.contains("\u{1B}"))
            #expect(caught.userDetail == nil)
        }
    }

    @Test func htmlBadGatewayIsNotPrintedWhole() async throws {
        let page =
            "<html><head><title>502 Bad Gateway</title></head><body>" + String(repeating: "<p>nginx</p>", count: 500)
            + "</body></html>"
        try await HostileServer.with({ _ in
            HostileServer.response(status: "502 Bad Gateway", body: Array(page.utf8), contentType: "text/html")
        }) { server in
            let (error, _) = await failure(server.baseURL) { $0.retryPolicy = .never }
            let caught = try #require(error)
            #expect(caught.message == "The server's proxy returned an HTML error page (502 Bad Gateway).")
            #expect(caught.userDetail == nil)
            #expect(caught.category == .network)
        }
    }

    @Test func finalCircuitOpenErrorDoesNotPromiseARetry() async throws {
        let body =
            #"{"success":false,"error":{"code":"CIRCUIT_OPEN","message":"open","retryable":true,"retryAfterMs":10},"metadata":{"timestamp":"2026-01-01T00:00:00Z"}}"#
        try await HostileServer.with({ _ in HostileServer.json(body, status: "503 Service Unavailable") }) { server in
            let (error, _) = await failure(server.baseURL)
            let caught = try #require(error)
            #expect(caught.code == .circuitOpen)
            #expect(!caught.message.contains("Retrying"))
            #expect(caught.message.hasSuffix("."))
        }
    }

    // MARK: secrets

    @Test func capabilitiesCacheHoldsNoCredentials() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bts-caps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let caps = Fixtures.text("capabilities-production.json")
        try await HostileServer.with({ _ in HostileServer.json(caps) }) { server in
            let url = try #require(URL(string: "http://alice:Hunter2Secret@127.0.0.1:\(server.port)"))
            let api = makeAPI(url) { $0.cacheDirectory = directory }
            let result = await api.connect(refresh: true)
            #expect(result.capabilities != nil)
            await api.shutdown()
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(files.count == 1)
            let path = directory.appendingPathComponent(files[0]).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.lowercased().contains("hunter2secret"))
            #expect(!text.contains("alice"))
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
            #expect(mode.intValue & 0o077 == 0)
        }
    }

    // MARK: files

    @Test func binaryAndNonUTF8FilesAreRefusedBeforeAnyRequest() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bts-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = directory.appendingPathComponent("ls.csv")
        try Data(contentsOf: URL(fileURLWithPath: "/bin/ls")).write(to: binary)
        let latin1 = directory.appendingPathComponent("latin1.csv")
        try Data("Title,Author\nCaf\u{E9},Someone\n".data(using: .isoLatin1)!).write(to: latin1)
        try await HostileServer.with({ _ in HostileServer.json("{}") }) { server in
            let api = makeAPI(server.baseURL)
            for file in [binary, latin1] {
                do throws(BooksTrackError) {
                    _ = try await api.importCSV(fileAt: file)
                    Issue.record("imported \(file.lastPathComponent)")
                } catch {
                    #expect(error.kind == .invalidInput)
                    #expect(error.message.contains("not a text file") || error.message.contains("not UTF-8"))
                }
            }
            #expect(server.received.isEmpty)
            await api.shutdown()
        }
    }

    @Test func textFileCheckStateMachine() {
        #expect(TextFileCheck.problem(in: Array("Title,Author\r\nDune,Herbert\n".utf8)) == nil)
        #expect(TextFileCheck.problem(in: [0xEF, 0xBB, 0xBF] + Array("Café,Ü\n".utf8)) == nil)
        #expect(TextFileCheck.problem(in: Array("ab\u{1B}[2J".utf8)) == .controlByte(offset: 2))
        #expect(TextFileCheck.problem(in: [0x41, 0x00]) == .controlByte(offset: 1))
        #expect(TextFileCheck.problem(in: [0x41, 0xE9, 0x42]) == .notUTF8(offset: 1))
        #expect(TextFileCheck.problem(in: [0x41, 0xC3]) == .notUTF8(offset: 1))  // cut short
        #expect(TextFileCheck.problem(in: [0xED, 0xA0, 0x80]) == .notUTF8(offset: 0))  // surrogate
        #expect(TextFileCheck.problem(in: [0xC0, 0xAF]) == .notUTF8(offset: 0))  // overlong
        // Split across chunks.
        var scanner = TextFileCheck.Scanner()
        #expect(scanner.feed([0x41, 0xE2, 0x82]) == nil)
        #expect(scanner.feed([0xAC, 0x0A]) == nil)
        #expect(scanner.finish() == nil)
    }
}
