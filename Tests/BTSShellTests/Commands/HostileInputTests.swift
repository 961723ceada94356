import BTSLanguage
import BTSShell
import BooksTrackContract
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The shell against hostile input: URLs with impossible ports, unreachable servers, escape-laden
/// server strings, catastrophic patterns, runaway values, binary files.
@Suite("Hostile input")
struct HostileInputTests {
    // MARK: URLs and unreachable servers

    @Test(arguments: ["http://127.0.0.1:65536", "http://127.0.0.1:99999", "http://u:topsecret@127.0.0.1:70000"])
    func apiFlagWithAnImpossiblePortIsAUsageError(_ url: String) async throws {
        let harness = try ShellHarness.make(backend: BackendRequest(apiURL: url))
        let status = await harness.run("search dune")
        #expect(status == 2, "\(harness.err)")
        #expect(harness.err.contains("1–65535"))
        #expect(!harness.err.contains("topsecret"))
        await harness.close()
    }

    /// A query in a server URL was appended to (`/?api_key=K/v3/capabilities`) and ended as "does
    /// not offer ISBN lookup": refused at once, exit 2, without repeating the query.
    @Test func aServerURLWithAQueryIsAUsageError() async throws {
        let harness = try ShellHarness.make(backend: BackendRequest(apiURL: "http://127.0.0.1:9/?api_key=K3Y"))
        #expect(await harness.run("search isbn 9780441172719") == 2, "\(harness.err)")
        #expect(
            harness.err.contains("has a query (?…); a server URL is its scheme, host, port and path only"),
            "\(harness.err)"
        )
        #expect(!harness.err.contains("K3Y"))
        await harness.close()
    }

    @Test func environmentAndConnectURLsAreValidatedToo() async throws {
        let harness = try ShellHarness.make(
            backend: BackendRequest(),
            environment: ["BTS_API_URL": "http://127.0.0.1:99999"]
        )
        #expect(await harness.run("search dune") == 2)
        #expect(harness.err.contains("BTS_API_URL"))
        await harness.close()
        let other = try ShellHarness.make()
        #expect(await other.run("connect http://127.0.0.1:99999") == 2)
        #expect(other.err.contains("port 99999"))
        await other.close()
    }

    @Test func connectToAnUnreachableServerKeepsTheCurrentOne() async throws {
        let port = closedPort()
        let harness = try ShellHarness.make()
        #expect(await harness.run("search dune --limit 1") == 0, "\(harness.err)")  // the embedded server is current
        let status = await harness.run("connect http://127.0.0.1:\(port)")
        #expect(status == 3, "\(harness.err)")
        #expect(harness.err.contains("not switching to http://127.0.0.1:\(port): Cannot connect to 127.0.0.1"))
        #expect(harness.err.contains("Still connected to the embedded server."))
        #expect(!harness.err.contains("errno"))
        // Still on the embedded server: a search works.
        #expect(await harness.run("search dune --limit 1") == 0, "\(harness.err)")
        await harness.close()
    }

    @Test func connectForceSwitchesAndCapsSaysUnreachable() async throws {
        let port = closedPort()
        let harness = try ShellHarness.make()
        #expect(await harness.run("connect --force http://127.0.0.1:\(port)") == 0, "\(harness.err)")
        #expect(harness.err.contains("cannot be reached"))
        #expect(await harness.run("caps") == 3)
        #expect(harness.err.contains("the server is unreachable"))
        #expect(!harness.err.contains("did not publish"))
        #expect(await harness.run("search dune") == 3)
        #expect(harness.err.contains("Cannot connect to 127.0.0.1: the connection was refused"))
        #expect(!harness.err.contains("Retrying"))
        await harness.close()
    }

    // MARK: output sanitising

    static let evilTitle = "Dune\u{1B}]0;pwned\u{07}\u{1B}[2J\rHIDDEN\u{202E}txt.exe\r\nsecond line\u{9B}31m"

    @Test func tableRecordAndTextNeutraliseControls() {
        let value = JSONValue.record([("results", .array([.record([("title", .string(Self.evilTitle))])]))])
        let table = ResultRenderer(format: .table).render(
            value,
            view: .table(columns: [TableColumn("title", "TITLE")], rowsKey: "results", footer: nil, empty: nil)
        )
        let record = ResultRenderer(format: .table).render(
            .record([("title", .string(Self.evilTitle))]),
            view: .record(fields: [RecordField("title")])
        )
        let text = ResultRenderer(format: .table).render(.string(Self.evilTitle), view: .text(Self.evilTitle))
        for output in [table, record, text] {
            #expect(
                !output.unicodeScalars.contains {
                    $0.value == 0x1B || $0.value == 0x07 || $0 == "\r" || $0.value == 0x9B || $0.value == 0x202E
                }
            )
            #expect(output.contains("␛]0;pwned␇"))
        }
        #expect(table.split(separator: "\n").count == 3)  // header, rule, one row: the CR LF did not split it
    }

    @Test func csvQuotesCRLFAndNeutralisesEscapes() {
        #expect(ResultRenderer.csvField("a\r\nb") == "\"a\r\nb\"")
        #expect(ResultRenderer.csvField("a\rb") == "\"a\rb\"")
        #expect(ResultRenderer.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(ResultRenderer.csvField("x\u{1B}[31my") == "x␛[31my")
        #expect(ResultRenderer.csvField("plain") == "plain")
        let value = JSONValue.record([("results", .array([.record([("title", .string(Self.evilTitle))])]))])
        let csv = ResultRenderer(format: .csv).render(
            value,
            view: .table(columns: [TableColumn("title", "TITLE")], rowsKey: "results", footer: nil, empty: nil)
        )
        #expect(!csv.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(csv.hasPrefix("title\n\""))
    }

    @Test func jsonEscapesC1AndBidiControls() {
        let json = JSONValue.string("a\u{9B}b\u{202E}c\u{1B}").compactJSON
        #expect(json == #""a\u009bb\u202ec\u001b""#)
    }

    @Test func errorsFromOutsideAreNeutralised() {
        let error = ShellError(.failure, "server says \u{1B}]0;x\u{07}", details: ["detail\r\u{1B}[2J"])
        let text = ErrorReporter(colored: false, showsLocation: false).render(error, in: nil)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0 == "\r" })
    }

    // MARK: patterns and values

    @Test func catastrophicPatternIsFast() async throws {
        let harness = try ShellHarness.make()
        let subject = String(repeating: "a", count: 5000)
        let status = await harness.run(
            "set s \(subject)\nexpect not $s matches '(a*)*b'\nexpect $s matches '^(a|aa)+$'"
        )
        #expect(status == 0, "\(harness.err)")
        await harness.close()
    }

    @Test func doublingAVariableStopsAtTheValueLimit() async throws {
        let harness = try ShellHarness.make()
        let script = "set s 0123456789abcdef0123456789abcdef\n" + String(repeating: "set s \"$s$s\"\n", count: 30)
        let status = await harness.run(script)
        #expect(status == 1)
        #expect(harness.err.contains("the value is too large"))
        await harness.close()
    }

    // MARK: files

    @Test func importRefusesBinaryFilesBeforeAnyRequest() async throws {
        let harness = try ShellHarness.make()
        #expect(await harness.run("import /bin/ls") == 2)
        #expect(harness.err.contains("not a text file") || harness.err.contains("not UTF-8"))
        #expect(await harness.run("jobs") == 0)
        #expect(harness.out.contains(#"{"jobs":[]}"#))
        await harness.close()
    }

    @Test func scriptDiagnosticsNeverPrintControlCharacters() async throws {
        // Found by scripts/fuzz (language): "unexpected '\0' in variable path" printed the NUL.
        let harness = try ShellHarness.make()
        let script = "echo ${a\u{0}b}\necho ${x\u{1B}\u{301}]0;t\u{07}}\necho \"\u{202E}\u{9B}31m"
        #expect(await harness.run(script) == 2)
        #expect(
            !harness.err.unicodeScalars.contains {
                $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
            },
            "\(harness.err.debugDescription)"
        )
        await harness.close()
    }

    @Test func controlBytesInAFileAreNeverPrinted() async throws {
        let harness = try ShellHarness.make()
        try harness.write("evil.csv", "\u{1B}]0;pwned\u{07}\u{1B}[2Jheader\nrow\n")
        #expect(await harness.run("import evil.csv") == 2)
        #expect(!harness.err.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        await harness.close()
    }
}
