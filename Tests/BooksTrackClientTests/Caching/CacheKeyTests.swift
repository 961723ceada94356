import BooksTrackContract
import Foundation
import Hummingbird
import ServerTestSupport
import TestSupport
import Testing

@testable import BooksTrackClient

/// The caches' key of a backend: scheme and host lowercased, the path as given, and who asks (a
/// digest of the token or URL credentials, never the secret). Two tenants behind one host, or two
/// identities on one URL, never share an answer.
@Suite struct CacheKeyTests {
    @Test func onlySchemeAndHostAreLowercased() throws {
        let url = try #require(URL(string: "HTTPS://Books.Example.COM:8443/Alice/"))
        #expect(CapabilitiesDiskCache.normalized(url) == "https://books.example.com:8443/Alice")
        let lower = try #require(URL(string: "https://books.example.com:8443/alice"))
        #expect(ResponseDiskCache.backendName(url) != ResponseDiskCache.backendName(lower))
        let sameServer = try #require(URL(string: "https://BOOKS.example.com:8443/Alice"))
        #expect(ResponseDiskCache.backendName(url) == ResponseDiskCache.backendName(sameServer))
    }

    @Test func theIdentityIsADigestNeverTheSecret() throws {
        let url = try #require(URL(string: "https://books.example.com"))
        #expect(CapabilitiesDiskCache.identity(bearerToken: nil, url: url) == nil)
        #expect(CapabilitiesDiskCache.identity(bearerToken: "", url: url) == nil)
        let alice = ResponseDiskCache.backendName(url, bearerToken: "sk_alice_SECRET")
        let bob = ResponseDiskCache.backendName(url, bearerToken: "sk_bob_SECRET")
        #expect(alice != bob)
        #expect(alice != ResponseDiskCache.backendName(url))
        #expect(alice == ResponseDiskCache.backendName(url, bearerToken: "sk_alice_SECRET"))
        #expect(alice.hasPrefix("https://books.example.com as sha256:"), "\(alice)")
        let withCredentials = try #require(URL(string: "https://carol:hunter2@books.example.com"))
        let carol = ResponseDiskCache.backendName(withCredentials)
        #expect(carol != ResponseDiskCache.backendName(url))
        for key in [alice, bob, carol] {
            #expect(!key.contains("SECRET") && !key.contains("hunter2") && !key.contains("carol"), "\(key)")
        }
    }

    /// Two tenants (`/Alice`, `/alice`) behind one host: each is asked for its own capabilities and
    /// answers (the second was answered from the first's cache, and never asked).
    @Test func twoTenantsBehindOneHostKeepTheirOwnAnswers() async throws {
        let dir = try TempDir("cache-keys")
        defer { dir.cleanup() }
        let hits = HitCounter()
        try await TinyServer.with({ router in
            for tenant in ["Alice", "alice"] {
                router.get("/\(tenant)/api/v2/capabilities") { _, _ in
                    hits.hit("caps \(tenant)")
                    return Reply.fixture("capabilities-production.json")
                }
                router.get("/\(tenant)/v1/search/isbn") { _, _ in
                    hits.hit("isbn \(tenant)")
                    return Reply.fixture("search-isbn-envelope-no-success.json")
                }
            }
        }) { server in
            for tenant in ["Alice", "alice"] {
                let url = server.baseURL.appendingPathComponent(tenant)
                var configuration = APIConfiguration(
                    baseURL: url,
                    timeout: Duration.seconds(60).scaled,
                    connectTimeout: Duration.seconds(30).scaled,
                    retryPolicy: .never
                )
                configuration.cacheDirectory = dir.url
                configuration.responseCache = ResponseDiskCache(
                    directory: dir.url,
                    backend: ResponseDiskCache.backendName(url)
                )
                configuration.dialect = .v1
                let api = BooksTrackAPI(configuration: configuration)
                _ = await api.connect()
                _ = try await api.searchISBN("9780441172719")
                await api.shutdown()
            }
        }
        for tenant in ["Alice", "alice"] {
            #expect(hits.count("caps \(tenant)") == 1, "\(tenant)")
            #expect(hits.count("isbn \(tenant)") == 1, "\(tenant)")
        }
    }

    /// Two profiles with different tokens on one URL: the second identity is asked, not answered
    /// with what the first was told.
    @Test func twoTokensOnOneURLKeepTheirOwnAnswers() async throws {
        let dir = try TempDir("cache-identities")
        defer { dir.cleanup() }
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ router in
            router.get("/api/v2/capabilities") { request, _ in
                seen.mutate { $0.append("caps \(request.headers[.authorization] ?? "")") }
                return Reply.fixture("capabilities-production.json")
            }
            router.get("/v1/search/isbn") { request, _ in
                seen.mutate { $0.append("isbn \(request.headers[.authorization] ?? "")") }
                return Reply.fixture("search-isbn-envelope-no-success.json")
            }
        }) { server in
            for token in ["tok_alice", "tok_bob", "tok_alice"] {
                var configuration = APIConfiguration(
                    baseURL: server.baseURL,
                    timeout: Duration.seconds(60).scaled,
                    connectTimeout: Duration.seconds(30).scaled,
                    retryPolicy: .never
                )
                configuration.bearerToken = token
                configuration.cacheDirectory = dir.url
                configuration.responseCache = ResponseDiskCache(
                    directory: dir.url,
                    backend: ResponseDiskCache.backendName(server.baseURL, bearerToken: token)
                )
                configuration.dialect = .v1
                let api = BooksTrackAPI(configuration: configuration)
                _ = await api.connect()
                _ = try await api.searchISBN("9780441172719")
                await api.shutdown()
            }
        }
        // Alice's second run is answered from her own cache; Bob was asked for his.
        #expect(
            seen.value == [
                "caps Bearer tok_alice", "isbn Bearer tok_alice", "caps Bearer tok_bob", "isbn Bearer tok_bob",
            ]
        )
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
        for name in names {
            let text = String(decoding: try Data(contentsOf: dir.url.appendingPathComponent(name)), as: UTF8.self)
            #expect(!text.contains("tok_alice") && !text.contains("tok_bob"), "\(name)")
        }
    }
}
