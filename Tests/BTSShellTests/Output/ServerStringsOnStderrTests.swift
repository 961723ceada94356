import BTSTerminal
import BTSTerminalText
import BooksTrackContract
import Foundation
import Hummingbird
import ServerTestSupport
import Testing

@testable import BTSShell

/// Every line on stderr neutralises what a server chose (one rule for notes, dim notes and
/// warnings), and a job id that is not a plausible id is shown cut, in notes and in the `jobs` table.
@Suite("server strings on stderr")
struct ServerStringsOnStderrTests {
    /// OSC (window title), CSI (clear screen), OSC 52 (clipboard), CR, BEL, C1 CSI and a line break.
    static let hostileID = "x\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}]52;c;cHduZWQ=\u{07}\rHIDDEN\n\u{9B}31m"

    static func isInert(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0 == "\r" || $0.value == 0x9B }
    }

    @Test func notesDimNotesAndWarningsFollowOneRule() {
        let sink = BufferOutputSink()
        let output = ShellOutput(
            sink: sink,
            terminal: TerminalInfo(stdoutIsTerminal: true, stderrIsTerminal: true),
            noColor: false,
            environment: ["TERM": "xterm"],
            settings: ShellSettings()
        )
        output.note("started job \(Self.hostileID)")
        output.dimNote("budget \(Self.hostileID)")
        output.warn("offline \(Self.hostileID)")
        let lines = sink.standardError
        // The only escapes left are the dim and yellow styles the shell itself chose.
        let unstyled = lines.replacingOccurrences(of: "\u{1B}[2m", with: "").replacingOccurrences(
            of: "\u{1B}[33m",
            with: ""
        )
        .replacingOccurrences(of: "\u{1B}[0m", with: "").replacingOccurrences(of: "\u{1B}[22m", with: "")
        .replacingOccurrences(of: "\u{1B}[39m", with: "")
        #expect(Self.isInert(unstyled), "\(lines.debugDescription)")
        #expect(lines.contains("␛]0;pwned␇"))
    }

    /// A progress line redrawn in place (`watch`'s reconnecting reason, a countdown) follows the rule too.
    @Test func aRedrawnLineIsNeutralisedOnOneLine() {
        let sink = BufferOutputSink()
        let output = ShellOutput(
            sink: sink,
            terminal: TerminalInfo(stdoutIsTerminal: true, stderrIsTerminal: true),
            noColor: false,
            environment: ["TERM": "xterm"],
            settings: ShellSettings()
        )
        output.redraw("watch: \(Self.hostileID); reconnecting in 1 s")
        let prefix = "\r" + ANSIStyle.eraseToEndOfLine
        #expect(sink.standardError.hasPrefix(prefix))
        let drawn = String(sink.standardError.dropFirst(prefix.count))
        #expect(Self.isInert(drawn) && !drawn.contains("\n"), "\(drawn.debugDescription)")
    }

    @Test(arguments: ["batch_7c1e", "0b0f4a56-6a8e-4c9e-9a39-2b1f0c6f1d2e", "import:42"])
    func plausibleIDsAreShownWhole(_ id: String) {
        #expect(SessionJob.isPlausibleID(id))
        #expect(SessionJob.displayID(id) == id)
    }

    @Test func implausibleIDsAreCutAndNeutralised() {
        let long = String(repeating: "a", count: 10_000)
        for id in [Self.hostileID, long, "", "a b", "../../etc"] {
            #expect(!SessionJob.isPlausibleID(id), "\(id.prefix(20))")
            let shown = SessionJob.displayID(id)
            #expect(Self.isInert(shown) && !shown.contains("\n"), "\(shown.debugDescription)")
            #expect(shown.count <= SessionJob.shownIDPrefix + 3, "\(shown)")
        }
    }

    /// A server that answers a batch with a job id carrying escapes and a 10 KB id: the "started"
    /// note, the record, a watch's failure and the `jobs` table show neither raw nor whole.
    @Test(arguments: ["escapes", "10 KB"])
    func aServerChosenJobIDNeverReachesTheTerminalRaw(_ shape: String) async throws {
        let id = shape == "escapes" ? Self.hostileID : String(repeating: "J", count: 10_000)
        let accepted = JSONValue.record([
            ("success", .bool(true)),
            (
                "data",
                .record([
                    ("jobId", id.json), ("token", "t0k3n".json), ("authToken", "t0k3n".json),
                    ("totalCount", 2.json), ("processedCount", 0.json),
                ])
            ),
        ]).compactJSON
        try await TinyServer.with({ router in
            router.post("/api/batch-enrich") { _, _ in Reply.json(accepted, status: .accepted) }
            router.post("/v1/enrichment/batch") { _, _ in Reply.json(accepted, status: .accepted) }
        }) { server in
            try await withShell(backend: BackendRequest(profile: "tiny")) { harness in
                let config = harness.directory.appendingPathComponent("config/bts")
                try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
                let toml = "[profiles.tiny]\nurl = \"\(server.baseURL.absoluteString)\"\ndialect = \"v1\"\n"
                _ = FileManager.default.createFile(
                    atPath: config.appendingPathComponent("config.toml").path,
                    contents: Data(toml.utf8),
                    attributes: [.posixPermissions: 0o600]
                )
                let long = String(repeating: "J", count: SessionJob.shownIDPrefix + 1)
                #expect(await harness.run("enrich 9780441172719 9780451524935") == 0, "\(harness.err.prefix(300))")
                #expect(harness.err.contains("started batch enrichment job '"), "\(harness.err.prefix(300))")
                #expect(await harness.lastResult()["jobId"] == .string(id), "the result keeps the whole id")
                // The JSON on stdout is data (escaped); the table is for the terminal.
                let before = harness.out.count
                #expect(
                    await harness.run("set output table\nenrich 9780441172719 9780451524935\njobs") == 0,
                    "\(harness.err.prefix(300))"
                )
                let table = String(harness.out.dropFirst(before))
                #expect(table.contains("JOB"), "\(table.prefix(300))")
                for text in [harness.err, table] {
                    #expect(Self.isInert(text), "\(text.prefix(300).debugDescription)")
                    #expect(!text.contains(long), "\(text.count)")
                }
                _ = await harness.run("watch last")
                #expect(Self.isInert(harness.err), "\(harness.err.prefix(300).debugDescription)")
                #expect(!harness.err.contains(long), "\(harness.err.count)")
            }
        }
    }
}
