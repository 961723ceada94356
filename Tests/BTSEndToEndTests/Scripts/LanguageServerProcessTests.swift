import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// `bts lsp` as an editor starts it: framed JSON-RPC on its stdin and stdout, a clean exit, and no
/// request to the configured server.
@Suite("bts lsp over pipes", .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason)))
struct LanguageServerProcessTests {
    static func frame(_ json: String) -> String { "Content-Length: \(json.utf8.count)\r\n\r\n" + json }

    /// The bodies of the framed messages in `output`, in order.
    static func messages(_ output: String) -> [[String: Any]] {
        var bytes = Array(output.utf8)[...]
        var found: [[String: Any]] = []
        while let header = bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
            let text = String(decoding: bytes[bytes.startIndex..<header.lowerBound], as: UTF8.self)
            guard let length = Int(text.replacingOccurrences(of: "Content-Length: ", with: "")) else { break }
            // A message still arriving is read on a later look.
            guard bytes.endIndex - header.upperBound >= length else { break }
            let body = bytes[header.upperBound...].prefix(length)
            if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] {
                found.append(object)
            }
            bytes = bytes[(header.upperBound + length)...]
        }
        return found
    }

    @Test func aSessionOverPipesAndNoRequestToTheServer() async throws {
        guard let binary = BTSExecutable.url else { return }
        let text = "serch dune\\nsearch title dune --limt 5\\n"
        let completion =
            #"{"jsonrpc":"2.0","id":2,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///t/a.bts"},"position":{"line":1,"character":19}}}"#
        let hits = HitCounter()
        try await TinyServer.counting(hits) { server in
            let session = try Session(binary, environment: ["BTS_API_URL": server.baseURL.absoluteString])
            session.send(Session.start[0], Session.start[1], Session.didOpen(text), completion)
            session.input.fileHandleForWriting.write(Data("Content-Length: 15\r\n\r\nnot json at all".utf8))
            try await session.waitFor("the diagnostics") { Session.isDiagnostics($0, version: 1) }
            try await session.waitFor("the parse error") { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }
            #expect(await session.end() == 0, "exit after shutdown")
            #expect(session.errors.text.isEmpty, "\(session.errors.text)")
            let messages = session.messages
            #expect(
                messages.count == 5,
                "initialize, diagnostics, completion, the parse error, shutdown: \(session.reader.text)"
            )
            let items = Session.diagnostics(messages.first { Session.isDiagnostics($0, version: 1) })
            #expect(
                items.compactMap { $0["message"] as? String }.map { $0.components(separatedBy: "\n")[0] } == [
                    "unknown command 'serch' (did you mean 'search'?)",
                    "unknown option '--limt' for 'search' (did you mean '--limit'?)",
                ]
            )
            let answer = messages.first { $0["id"] as? Int == 2 }
            let labels = ((answer?["result"] as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap {
                $0["label"] as? String
            }
            #expect(labels.contains("--limit"), "\(labels)")
            #expect(hits.total == 0, "the language server made no request")
            // The same environment reaches the server from a run (the silence is not a dead server's).
            let home = try makeTempDirectory("lsp-process")
            defer { try? FileManager.default.removeItem(at: home) }
            _ = try await ChildProcess.run(
                binary,
                ["-c", "caps"],
                environment: [
                    "HOME": home.path, "BTS_API_URL": server.baseURL.absoluteString,
                    "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                    "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                    "XDG_STATE_HOME": home.appendingPathComponent("state").path,
                ]
            )
        }
        #expect(hits.total > 0, "the server was reachable")
    }

    @Test func theEditorGoingAwayEndsTheServer() async throws {
        guard let binary = BTSExecutable.url else { return }
        let home = try makeTempDirectory("lsp-gone")
        defer { try? FileManager.default.removeItem(at: home) }
        let input =
            Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
            + "Content-Length: 99999999999\r\n\r\n"
        let outcome = try await ChildProcess.run(binary, ["lsp"], environment: ["HOME": home.path], stdin: input)
        #expect(outcome.status == 1, "stdin ended without shutdown: \(outcome)")
        #expect(
            Self.messages(outcome.stdout).count == 2,
            "the answer to initialize and the oversized message's error: \(outcome.stdout)"
        )
    }

    /// `bts lsp` running with its input open: messages written as an editor writes them, replies
    /// read as they come.
    final class Session {
        let process = SpawnedProcess()
        let input = Pipe()
        let reader: PipeReader
        let errors: PipeReader
        let home: URL

        /// `bts lsp` in a home of its own, with `environment` besides.
        init(_ binary: URL, environment: [String: String] = [:]) throws {
            home = try makeTempDirectory("lsp-session")
            let output = Pipe()
            let error = Pipe()
            process.executableURL = binary
            process.arguments = ["lsp"]
            process.environment = [
                "HOME": home.path,
                "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            ]
            .merging(environment) { _, given in given }
            process.standardInput = input
            process.standardOutput = output
            process.standardError = error
            try process.run()
            reader = PipeReader(output.fileHandleForReading)
            errors = PipeReader(error.fileHandleForReading)
        }

        /// Writes `messages`, framed, in one write (the server reads them as one queue).
        func send(_ messages: String...) {
            input.fileHandleForWriting.write(Data(messages.map(LanguageServerProcessTests.frame).joined().utf8))
        }

        var messages: [[String: Any]] { LanguageServerProcessTests.messages(reader.text) }

        /// Waits (bounded, not timed) until a message satisfies `condition`.
        func waitFor(_ what: String, _ condition: ([String: Any]) -> Bool) async throws {
            let arrived = try await eventually { self.messages.contains(where: condition) }
            if !arrived { Issue.record("no \(what) came: \(reader.text.prefix(2000))") }
        }

        /// `shutdown`, `exit`, and the exit status.
        func end() async -> Int32 {
            send(#"{"jsonrpc":"2.0","id":99,"method":"shutdown"}"#, #"{"jsonrpc":"2.0","method":"exit"}"#)
            try? input.fileHandleForWriting.close()
            _ = await reader.finished()
            _ = await errors.finished()
            let process = self.process
            await offThePool { process.waitUntilExit() }
            try? FileManager.default.removeItem(at: home)
            return process.terminationStatus
        }

        static let start = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
        ]

        static func didOpen(_ text: String, version: Int = 1) -> String {
            #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///t/a.bts","languageId":"bts","version":\#(version),"text":"\#(text)"}}}"#
        }

        /// `didChange` with edits `(line, from, to, text)`, each on one line.
        static func didChange(version: Int, _ edits: [(Int, Int, Int, String)]) -> String {
            let changes = edits.map { line, from, to, text in
                #"{"range":{"start":{"line":\#(line),"character":\#(from)},"end":{"line":\#(line),"character":\#(to)}},"text":"\#(text)"}"#
            }
            return
                #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///t/a.bts","version":\#(version)},"contentChanges":[\#(changes.joined(separator: ","))]}}"#
        }

        static func isDiagnostics(_ message: [String: Any], version: Int) -> Bool {
            message["method"] as? String == "textDocument/publishDiagnostics"
                && (message["params"] as? [String: Any])?["version"] as? Int == version
        }

        static func diagnostics(_ message: [String: Any]?) -> [[String: Any]] {
            (message?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
        }

        static func line(_ diagnostic: [String: Any]?) -> Int? {
            ((diagnostic?["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int
        }
    }

    /// Five quick changes to a document of 10,000 bad lines, and a hover, sent as one: the hover is
    /// answered before any check of them, and only the newest text's diagnostics are published.
    @Test func changesQueuedAreCheckedOnceAndAHoverDoesNotWait() async throws {
        guard let binary = BTSExecutable.url else { return }
        let session = try Session(binary)
        session.send(
            Session.start[0],
            Session.start[1],
            Session.didOpen(String(repeating: "serch foo\\n", count: 10_000))
        )
        try await session.waitFor("first diagnostics") { Session.isDiagnostics($0, version: 1) }
        // "serch" → "search" on lines 0 to 4, one change each, then a hover on line 0.
        let changes = (2...6).map { Session.didChange(version: $0, [($0 - 2, 0, 5, "search")]) }
        let hover =
            #"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///t/a.bts"},"position":{"line":0,"character":2}}}"#
        session.send(changes[0], changes[1], changes[2], changes[3], changes[4], hover)
        try await session.waitFor("the newest text's diagnostics") { Session.isDiagnostics($0, version: 6) }
        let messages = session.messages
        let versions = messages.filter { $0["method"] as? String == "textDocument/publishDiagnostics" }
            .compactMap { ($0["params"] as? [String: Any])?["version"] as? Int }
        #expect(versions == [1, 6], "only the newest text is checked")
        let hoverAt = messages.firstIndex { $0["id"] as? Int == 7 }
        let newestAt = messages.firstIndex { Session.isDiagnostics($0, version: 6) }
        #expect(hoverAt != nil && newestAt != nil && (hoverAt ?? 0) < (newestAt ?? 0), "the hover is answered first")
        let value =
            ((messages.first { $0["id"] as? Int == 7 }?["result"] as? [String: Any])?["contents"] as? [String: Any])?[
                "value"
            ]
        #expect(
            (value as? String)?.hasPrefix("search — ") == true,
            "the hover sees the changes: \(String(describing: value))"
        )
        let newest = Session.diagnostics(messages.first { Session.isDiagnostics($0, version: 6) })
        #expect(Session.line(newest.first) == 5, "the first bad line left")
        #expect((newest.last?["message"] as? String)?.hasPrefix("… ") == true, "capped: \(newest.count)")
        #expect(await session.end() == 0)
    }

    /// One change of 20,000 edits (every line's "serch" but the last's made "search"), then the
    /// quick fix of the last: its edit, as the diagnostics' own fixIt gives it.
    @Test func twentyThousandEditsInOneChangeAndAQuickFix() async throws {
        guard let binary = BTSExecutable.url else { return }
        let session = try Session(binary)
        let lines = 20_000
        session.send(Session.start[0], Session.start[1], Session.didOpen(String(repeating: "serch x\\n", count: lines)))
        try await session.waitFor("first diagnostics") { Session.isDiagnostics($0, version: 1) }
        let initialize = session.messages.first { $0["id"] as? Int == 1 }
        let capabilities = (initialize?["result"] as? [String: Any])?["capabilities"] as? [String: Any]
        #expect(
            ((capabilities?["codeActionProvider"] as? [String: Any])?["codeActionKinds"] as? [String]) == [
                "quickfix", "source.fixAll",
            ]
        )
        session.send(Session.didChange(version: 2, (0..<(lines - 1)).map { ($0, 0, 5, "search") }))
        try await session.waitFor("the diagnostics of the changed text") { Session.isDiagnostics($0, version: 2) }
        let left = Session.diagnostics(session.messages.first { Session.isDiagnostics($0, version: 2) })
        #expect(left.count == 1 && Session.line(left.first) == lines - 1, "\(left.prefix(3))")
        let action =
            #"{"jsonrpc":"2.0","id":8,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///t/a.bts"},"range":{"start":{"line":\#(lines - 1),"character":2},"end":{"line":\#(lines - 1),"character":2}},"context":{"diagnostics":[]}}}"#
        session.send(action)
        try await session.waitFor("the code actions") { $0["id"] as? Int == 8 }
        let actions = session.messages.first { $0["id"] as? Int == 8 }?["result"] as? [[String: Any]] ?? []
        #expect(actions.compactMap { $0["title"] as? String } == ["Replace 'serch' with 'search'"], "\(actions)")
        #expect(actions.first?["kind"] as? String == "quickfix")
        let edits =
            ((actions.first?["edit"] as? [String: Any])?["changes"] as? [String: Any])?["file:///t/a.bts"]
            as? [[String: Any]]
        #expect(edits?.first?["newText"] as? String == "search")
        #expect(Session.line(edits?.first) == lines - 1)
        #expect(await session.end() == 0)
    }
}
