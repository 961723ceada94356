import BTSTerminal
import BTSTerminalText
import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell

/// One rule decides the format of every destination of stdout: what was chosen explicitly, else a
/// table for a terminal and JSON for anything else — a pipe inside a bts line (`cmd | jq`), stdout
/// that is not a terminal, a file. Text results and confirmations follow it; `echo`'s words go as
/// they are into a pipe and neutralised onto a terminal.
@Suite("output: one rule for every destination")
struct OutputRuleTests {
    static let terminal = TerminalInfo(
        stdinIsTerminal: true,
        stdoutIsTerminal: true,
        stderrIsTerminal: true,
        columns: 100
    )

    /// ESC (an OSC window title, a CSI clear), BEL, C1 CSI, a right-to-left override, CR.
    static let hostile = "a\u{1B}]0;pwned\u{07}b\u{1B}[2Jc\u{9B}31md\u{202E}e\rf"

    static func decoded(_ text: Substring) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// Each line of `text` is one JSON document.
    static func documents(_ text: String) -> [JSONValue]? {
        let lines = text.split(separator: "\n")
        let documents = lines.compactMap(decoded)
        return documents.count == lines.count ? documents : nil
    }

    @Test func theRuleIsTheChoiceElseTableOnATerminalElseJSON() {
        #expect(OutputFormat.forDestination(isTerminal: true, chosen: nil) == .table)
        #expect(OutputFormat.forDestination(isTerminal: false, chosen: nil) == .json)
        for format in OutputFormat.allCases {
            #expect(OutputFormat.forDestination(isTerminal: true, chosen: format) == format)
            #expect(OutputFormat.forDestination(isTerminal: false, chosen: format) == format)
        }
    }

    /// A pipeline inside a bts line reads what the same command writes into the shell's own pipe:
    /// JSON, in a session on a terminal too (where the command alone is a table).
    @Test(arguments: [false, true])
    func aPipeInsideALineGetsJSON(onTerminal: Bool) async throws {
        try await withShell(terminal: onTerminal ? Self.terminal : .pipes) { h in
            let line = "search author tolkien --limit 2"
            #expect(await h.run("\(line) | cat") == 0, "\(h.err)")
            let piped = h.out
            let document = try #require(Self.documents(piped)?.first, "\(piped)")
            #expect(document["results"]?.arrayValue?.count == 2, "\(piped)")
            h.sink.reset()
            #expect(await h.run(line) == 0, "\(h.err)")
            if onTerminal {
                #expect(h.out.contains("TITLE"), "a terminal gets a table: \(h.out)")
            } else {
                #expect(h.out == piped, "the same bytes inside and outside bts")
            }
            // An explicit choice wins in the pipe, as outside it.
            h.sink.reset()
            #expect(await h.run("\(line) --output table | cat") == 0, "\(h.err)")
            #expect(h.out.contains("TITLE") && Self.documents(h.out) == nil, "\(h.out)")
            h.sink.reset()
            #expect(await h.run("set output csv; \(line) | cat") == 0, "\(h.err)")
            #expect(
                h.out.split(separator: "\n").first?.contains(",") == true && Self.documents(h.out) == nil,
                "\(h.out)"
            )
        }
    }

    /// A file is not a terminal: JSON, unless its extension (or `--output`) chooses.
    @Test func aFileWithoutAKnownExtensionGetsJSON() async throws {
        try await withShell(terminal: Self.terminal) { h in
            #expect(
                await h.run("search isbn 9780439023481 > plain; search isbn 9780439023481 > plain.txt") == 0,
                "\(h.err)"
            )
            let plain = try String(contentsOf: h.directory.appendingPathComponent("plain"), encoding: .utf8)
            #expect(Self.documents(plain)?.count == 1, "\(plain)")
            let text = try String(contentsOf: h.directory.appendingPathComponent("plain.txt"), encoding: .utf8)
            #expect(Self.documents(text) == nil && text.contains("Hunger"), "\(text)")
        }
    }

    /// Text results and confirmations are JSON in a pipe (their facts, not their sentence), and the
    /// sentence stays on a terminal; nothing of them reaches stderr.
    @Test func textResultsAndConfirmationsAreJSONInAPipe() async throws {
        try await withShell { h in
            let script = """
                search isbn 9780439023481
                save
                help search
                alias hg search 9780439023481
                alias
                set
                history
                library remove 9780439023481
                cache show
                """
            #expect(await h.run(script) == 0, "\(h.err)")
            let documents = try #require(Self.documents(h.out), "\(h.out)")
            #expect(documents.count == 8, "\(h.out)")
            let saved = documents[1]
            #expect(saved["saved"]?.intValue == 1, "\(h.out)")
            #expect(saved["books"]?.arrayValue?.first?["isbn"]?.stringValue == "9780439023481", "\(h.out)")
            #expect(saved["library"]?["created"]?.intValue == 1, "\(h.out)")
            #expect(documents[2].stringValue?.contains("search isbn") == true, "help is its text, as a JSON string")
            #expect(documents[3]["hg"]?.stringValue == "search 9780439023481", "\(h.out)")
            #expect(documents[4]["settings"]?["output"] != nil, "\(h.out)")
            #expect(documents[5].arrayValue != nil, "\(h.out)")
            #expect(documents[6]["removed"]?["isbn"]?.stringValue == "9780439023481", "\(h.out)")
            #expect(documents[7]["cached"]?.boolValue == false, "\(h.out)")
            #expect(!h.out.contains("Saved ") && !h.out.contains("Removed "), "\(h.out)")
            #expect(!h.err.contains("Saved ") && !h.err.contains("Removed "), "\(h.err)")
        }
        try await withShell(terminal: Self.terminal) { h in
            #expect(await h.run("search isbn 9780439023481; save; library remove 9780439023481") == 0, "\(h.err)")
            #expect(h.out.contains("Saved 1 book: library 1 created"), "\(h.out)")
            #expect(h.out.contains("Removed "), "\(h.out)")
        }
    }

    /// `echo` of a value from outside (the environment, a file read into a variable): its controls
    /// are shown inert on a terminal and go as they are into a pipe, a file or a pipeline.
    @Test func echoIsNeutralisedOnATerminalAndRawElsewhere() async throws {
        let environment = ["EVIL": Self.hostile]
        try await withShell(terminal: Self.terminal, environment: environment) { h in
            try h.write("evil.txt", "x" + Self.hostile + "\n")
            #expect(await h.run("echo ${env.EVIL}\nfor line in lines evil.txt\necho $line\nend") == 0, "\(h.err)")
            let shown = h.out
            #expect(
                !shown.unicodeScalars.contains { TerminalText.needsWork($0) && $0 != "\n" },
                "\(shown.debugDescription)"
            )
            #expect(
                shown == TerminalText.sanitize(Self.hostile) + "\n" + TerminalText.sanitize("x" + Self.hostile) + "\n"
            )
            #expect(shown.contains("␛]0;pwned␇") && shown.contains("\u{FFFD}"), "\(shown.debugDescription)")
            // A pipeline inside the line and a file get the bytes themselves.
            h.sink.reset()
            #expect(await h.run("echo ${env.EVIL} | cat\necho ${env.EVIL} > echoed") == 0, "\(h.err)")
            #expect(h.out == Self.hostile + "\n", "\(h.out.debugDescription)")
            let file = try Data(contentsOf: h.directory.appendingPathComponent("echoed"))
            #expect(file == Data((Self.hostile + "\n").utf8))
        }
        try await withShell(environment: environment) { h in
            #expect(await h.run("echo ${env.EVIL}") == 0, "\(h.err)")
            #expect(h.out == Self.hostile + "\n", "\(h.out.debugDescription)")
        }
    }

    /// A refused `--var` or `--vars` line quotes what it refused neutralised (C0, C1 and bidi
    /// controls), on one line.
    @Test func refusedVariablesAreNeutralised() throws {
        let directory = try makeTempDirectory("vars-hostile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad\u{1B}[2J.env")
        try Data("A\u{9B}31m\u{202E}=1\n".utf8).write(to: file)
        let failures = [
            ScriptVariables.collect(files: [], assignments: ["a\u{9B}31m\u{202E}b\u{1B}]0;t\u{07}=1"]),
            ScriptVariables.collect(files: [], assignments: ["no equals \u{9B}2J\nnext"]),
            ScriptVariables.collect(files: [file.path], assignments: []),
            ScriptVariables.collect(
                files: [directory.appendingPathComponent("gone\u{202E}.env").path],
                assignments: []
            ),
        ]
        for result in failures {
            guard case .failure(let failure) = result else {
                Issue.record("accepted: \(result)")
                continue
            }
            #expect(
                !failure.message.unicodeScalars.contains(where: TerminalText.needsWork),
                "\(failure.message.debugDescription)"
            )
            #expect(failure.message == TerminalText.sanitize(failure.message, lines: .flatten))
        }
        guard case .failure(let named) = failures[0] else { return }
        #expect(named.message.contains("a\u{FFFD}31m\u{FFFD}b␛]0;t␇"), "\(named.message)")
    }
}
