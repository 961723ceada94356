import Foundation
import TestSupport
import Testing

extension BinaryTests {
    /// A server that takes the connection and never answers: `caps` and `limits` said "the server is
    /// unreachable: … timed out"; a timeout is a server that did not answer in time.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func capsAndLimitsCallATimeoutATimeout() async throws {
        let url = "http://127.0.0.1:\(silentPort())"
        let caps = try await Self.run(["--api", url, "--timeout", "1", "-c", "caps"])
        #expect(caps.status == 3, "\(caps)")
        #expect(caps.stderr.contains("capabilities unknown: the server did not answer in time"), "\(caps)")
        #expect(!caps.stderr.contains("unreachable"), "\(caps)")
        let limits = try await Self.run(["--api", url, "--timeout", "1", "-o", "json", "-c", "limits"])
        #expect(limits.status == 0, "\(limits)")
        #expect(limits.stderr.contains("the server did not answer in time"), "\(limits)")
        #expect(!limits.stderr.contains("unreachable"), "\(limits)")
    }
}
