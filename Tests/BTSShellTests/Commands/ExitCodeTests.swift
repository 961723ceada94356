import BooksTrackClient
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@testable import BTSShell

/// every exit status of docs/usage.md, provoked for real.
@Suite("exit codes")
struct ExitCodeTests {
    /// Exit statuses are the shell's alone: every client error category becomes one of them in
    /// `ExitStatus(_:)` (the client has no exit numbers), and `bts --help` lists every status.
    @Test func everyClientCategoryIsAShellStatus() {
        for category in BooksTrackError.Category.allCases {
            let status = ExitStatus(category)
            #expect(status != .ok && status != .expectationFailed, "\(category)")
        }
        #expect(ExitStatus(.network) == .network && ExitStatus(.rateLimited) == .rateLimited)
        #expect(ExitStatus(.usage) == .usage && ExitStatus(.cancelled) == .interrupted)
        for status in ExitStatus.allCases {
            #expect(ExitStatus.summary.contains("\(status.rawValue) \(status.meaning)"))
        }
    }

    @Test func zeroWhenEverythingWorks() async throws {
        try await withShell { harness in
            #expect(await harness.run("search isbn 9780439023481; search title dune --limit 2") == 0)
        }
    }

    @Test func oneWhenTheAPISaysNotFound() async throws {
        try await withShell { harness in
            let status = await harness.run("similar 9780000000002\n")
            #expect(status == 1)
            #expect(harness.err.contains("test.bts:1:1: error:"), "\(harness.err)")
        }
    }

    @Test func twoForUsageErrors() async throws {
        try await withShell { harness in
            #expect(await harness.run("search --limit 5\n") == 2)
            #expect(await harness.run("enrich 123\n") == 2)
        }
    }

    @Test func threeWhenTheServerIsUnreachable() async throws {
        try await withShell(backend: BackendRequest(apiURL: "http://127.0.0.1:\(closedPort())")) { harness in
            let status = await harness.run("search isbn 9780439023481\n")
            #expect(status == 3)
            #expect(harness.err.contains("error:"), "\(harness.err)")
        }
    }

    @Test func fourWhenAnExpectationFails() async throws {
        try await withShell { harness in
            #expect(await harness.run("search isbn 9780439023481\nexpect ${_.totalCount} > 1\n") == 4)
            #expect(harness.err.contains("left:  1"))
            #expect(harness.err.contains("right: 1"))
        }
    }

    @Test func fiveWhenRateLimitedAndNotAllowedToWait() async throws {
        var server = ServerConfiguration()
        server.rateLimits[.search] = .perMinute(1)
        try await withShell(server: server) { harness in
            let status = await harness.run("set wait off\nsearch isbn 9780439023481\nsearch title dune\necho never\n")
            #expect(status == 5, "\(harness.err)")
            #expect(harness.err.contains("budget is spent"), "\(harness.err)")
            #expect(!harness.out.contains("never"))
        }
    }

    /// `set wait off` in mid-session also stops long retry waits: a 503 with a 30 s Retry-After is
    /// reported at once instead of being waited out (it was fixed when the client was created).
    @Test func setWaitOffMidSessionStopsLongRetryWaits() async throws {
        var server = ServerConfiguration()
        server.faultInjectionEnabled = true
        server.faultRules = [
            FaultRule(
                pathPrefix: "/v1/search/title",
                action: .circuitOpen(retryAfterMs: 30_000, provider: "google_books")
            )
        ]
        try await withShell(server: server) { harness in
            // The backend opens (with waiting on) before waiting is turned off.
            _ = await harness.run("search isbn 9780439023481\n")
            let status = await harness.run("set wait off\nsearch title dune\n")
            #expect(status != 0)
            #expect(harness.err.contains("30"), "\(harness.err)")
            #expect(!harness.err.contains("retrying"), "no retry wait was started: \(harness.err)")
            #expect(await harness.shell.lastMetrics.retries == 0)
        }
    }

    /// `set progress` in mid-session decides whether retry lines show, from the next call on (the
    /// retry handler was fixed when the backend opened). Output is a pipe here: hidden by default.
    @Test func setProgressMidSessionAppliesToRetryLines() async throws {
        var server = ServerConfiguration()
        server.faultInjectionEnabled = true
        server.faultRules = [
            // Two failed attempts, then an answer (3 attempts at most), for each of the two searches.
            FaultRule(
                pathPrefix: "/v1/search/title",
                action: .circuitOpen(retryAfterMs: 50, provider: "google_books"),
                times: 2
            ),
            FaultRule(
                pathPrefix: "/v1/search/author",
                action: .circuitOpen(retryAfterMs: 50, provider: "google_books"),
                times: 2
            ),
        ]
        try await withShell(server: server) { harness in
            _ = await harness.run("search isbn 9780439023481\n")  // the backend opens with progress hidden
            #expect(await harness.run("set progress on\nsearch title dune\n") == 0, "\(harness.err)")
            #expect(harness.err.contains("retrying"), "\(harness.err)")
            let before = harness.err.components(separatedBy: "retrying").count
            #expect(await harness.run("set progress off\nsearch author tolkien\n") == 0, "\(harness.err)")
            #expect(harness.err.components(separatedBy: "retrying").count == before, "\(harness.err)")
            #expect(await harness.shell.lastMetrics.retries == 2)  // it did retry, silently
        }
    }

    @Test func oneHundredThirtyWhenInterrupted() async throws {
        try await withShell { harness in
            let task = Task { await harness.run("search isbn 9780439023481\nsleep 1m\n") }
            while await harness.shell.lastResult == .null { try await Task.sleep(for: .milliseconds(20)) }
            task.cancel()
            #expect(await task.value == 130)
        }
    }

    @Test func gatedCommandExplainsItselfWithoutARequest() async throws {
        var server = ServerConfiguration()
        server.disabledFeatures = [.semanticSearch]
        try await withShell(server: server) { harness in
            let status = await harness.run("semantic a boy wizard at a school of magic\n")
            #expect(status == 1)
            #expect(harness.err.contains("'semantic' is not available on this server"), "\(harness.err)")
            #expect(await harness.shell.lastMetrics.calls == 0)
            // help marks it once capabilities are known
            _ = await harness.run("help --output table")
            let words = harness.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
            #expect(words.contains("unavailable on this server: semantic_search is disabled"))
        }
    }
}

/// The shell's own error codes are `ErrorCode` statics beside the code that throws them; `$_` carries
/// them as the contract's codes are carried.
@Suite("shell error codes")
struct ShellErrorCodeTests {
    @Test func failuresReportTheirTypedCodes() async throws {
        try await withShell { harness in
            try harness.write("binary.csv", "Title,Author\n\u{0}\u{1}\u{2}\n")
            #expect(await harness.run("import binary.csv") == 2)
            #expect(await harness.lastResult()["error"]?["code"]?.stringValue == ErrorCode.notText.rawValue)
            #expect(await harness.run("expect 1 == 2") == 4)
            #expect(await harness.lastResult()["error"]?["code"]?.stringValue == ErrorCode.expectFailed.rawValue)
        }
        #expect(ShellError(.failure, "x").code == .commandFailed && ShellError(.usage, "x").code == .usage)
    }
}
