import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// A condition written as one word (`$n==6`, always true) through the real binary: `bts check`,
/// a script run and `bts test` each refuse it with the fix, before any request.
@Suite("bts binary: conditions", .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason)))
struct ConditionProcessTests {
    @Test func aOneWordConditionIsAnErrorWithItsFixBeforeAnyRequest() async throws {
        let workspace = try ScriptTestProcessTests.Workspace()
        defer { workspace.remove() }
        try workspace.write("c.bts", "echo started\nsearch title dune --limit 1\nset n 5\nexpect $n==6\n")
        try workspace.write(
            "tests/ci.bts",
            "search title dune --limit 1\nif ${_.totalCount}>0 and $n == 1\n  echo x\nend\n"
        )
        let hits = HitCounter()
        try await TinyServer.counting(hits) { server in
            let api = ["BTS_API_URL": "http://127.0.0.1:\(server.port)"]
            let check = try await workspace.bts(["check", "c.bts"], extra: api)
            #expect(check.status == 2, "\(check)")
            #expect(
                check.stderr.contains(
                    """
                    c.bts:4:8: error: '$n==6' is one word, so it is always true; write '$n == 6'
                      4 | expect $n==6
                        |        ^~~~~
                    """
                ),
                "\(check)"
            )
            let run = try await workspace.bts(["c.bts"], extra: api)
            #expect(run.status == 2, "\(run)")
            #expect(run.stdout.isEmpty, "nothing ran: \(run)")
            #expect(run.stderr.contains("write '$n == 6'"), "\(run)")
            let test = try await workspace.bts(["test", "tests"], extra: api)
            #expect(test.status == 1, "\(test)")
            #expect(test.stderr.contains("tests/ci.bts: Error (exit 2, "), "\(test)")
            #expect(
                test.stderr.contains(
                    "tests/ci.bts:2:4: '${_.totalCount}>0' is one word, so it is always true; write '${_.totalCount} > 0'"
                ),
                "\(test)"
            )
            #expect(hits.total == 0, "a refused script makes no request")
            // The same server answers a run (the silence is not a dead server's).
            _ = try await workspace.bts(["-c", "caps"], extra: api)
        }
        #expect(hits.total > 0, "the server was reachable")
    }
}
