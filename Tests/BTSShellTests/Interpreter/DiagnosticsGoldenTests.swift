import BTSShell
import Testing

/// Whole-pipeline diagnostics: parse + registry validation report every error with carets
/// before anything runs (exit 2).
@Suite("diagnostics golden")
struct DiagnosticsGoldenTests {
    @Test func everyErrorOfAScriptIsReportedBeforeAnythingRuns() async throws {
        try await withShell(backend: BackendRequest(apiURL: "http://127.0.0.1:\(closedPort())")) { harness in
            let status = await harness.run(
                """
                echo started
                search title dune --limt 5
                serch isbn 9780441172719
                set output yaml
                similar 9780441172719 --limit 500
                echo "unclosed
                """,
                name: "script.bts"
            )
            #expect(status == 2)
            #expect(harness.out.isEmpty, "nothing ran")
            #expect(
                harness.err == """
                    script.bts:2:19: error: unknown option '--limt' for 'search' (did you mean '--limit'?)
                      2 | search title dune --limt 5
                        |                   ^~~~~~
                    script.bts:3:1: error: unknown command 'serch' (did you mean 'search'?)
                      3 | serch isbn 9780441172719
                        | ^~~~~
                    script.bts: note: type 'help' to list the commands
                    script.bts:4:12: error: invalid value 'yaml' for setting 'output': expected one of table, json, ndjson, csv, markdown
                      4 | set output yaml
                        |            ^~~~
                    script.bts:5:31: error: value 500 for '--limit' is out of range: expected an integer 1–50
                      5 | similar 9780441172719 --limit 500
                        |                               ^~~
                    script.bts:6:6: error: unterminated double-quoted string
                      6 | echo "unclosed
                        |      ^
                    script.bts: note: the string starts here and runs to the end of the input

                    """
            )
        }
    }

    @Test func badISBNChecksumIsAUsageErrorWithoutARequest() async throws {
        // The backend is a closed port: a request would give exit 3, so 2 proves none was sent.
        try await withShell(backend: BackendRequest(apiURL: "http://127.0.0.1:\(closedPort())")) { harness in
            let status = await harness.run("search 978-0-439-02348-2\n", name: "isbn.bts")
            #expect(status == 2)
            #expect(
                harness.err == """
                    isbn.bts:1:8: error: ISBN format is incorrect (use ISBN-10 or ISBN-13): ISBN checksum is wrong (the check digit should be 1)
                      1 | search 978-0-439-02348-2
                        |        ^~~~~~~~~~~~~~~~~

                    """
            )
        }
    }
}
