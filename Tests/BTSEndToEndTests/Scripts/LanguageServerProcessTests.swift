import Foundation
import ServerTestSupport
import Testing
import TestSupport

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
            let body = bytes[header.upperBound...].prefix(length)
            if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] { found.append(object) }
            bytes = bytes[(header.upperBound + length)...]
        }
        return found
    }

    @Test func aSessionOverPipesAndNoRequestToTheServer() async throws {
        guard let binary = BTSExecutable.url else { return }
        let home = try makeTempDirectory("lsp-process")
        defer { try? FileManager.default.removeItem(at: home) }
        let text = "serch dune\\nsearch title dune --limt 5\\n"
        let input = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///t/a.bts","languageId":"bts","version":1,"text":"\#(text)"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///t/a.bts"},"position":{"line":1,"character":19}}}"#,
            "not json at all",
            #"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#,
            #"{"jsonrpc":"2.0","method":"exit"}"#,
        ].map(Self.frame).joined()
        let hits = HitCounter()
        try await TinyServer.counting(hits) { server in
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
            environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
            environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
            environment["BTS_API_URL"] = server.baseURL.absoluteString
            let outcome = try await ChildProcess.run(binary, ["lsp"], environment: environment, stdin: input)
            #expect(outcome.status == 0, "exit after shutdown: \(outcome)")
            #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
            let messages = Self.messages(outcome.stdout)
            #expect(messages.count == 5, "initialize, diagnostics, completion, the parse error, shutdown: \(outcome.stdout)")
            let diagnostics = messages.first { $0["method"] as? String == "textDocument/publishDiagnostics" }
            let items = (diagnostics?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
            #expect(items.compactMap { $0["message"] as? String }.map { $0.components(separatedBy: "\n")[0] } == [
                "unknown command 'serch' (did you mean 'search'?)", "unknown option '--limt' for 'search' (did you mean '--limit'?)",
            ])
            let completion = messages.first { $0["id"] as? Int == 2 }
            let labels = ((completion?["result"] as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
            #expect(labels.contains("--limit"), "\(labels)")
            let parseError = messages.first { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }
            #expect(parseError != nil, "\(messages)")
            #expect(hits.total == 0, "the language server made no request")
            // The same environment reaches the server from a run (the silence is not a dead server's).
            _ = try await ChildProcess.run(binary, ["-c", "caps"], environment: environment)
        }
        #expect(hits.total > 0, "the server was reachable")
    }

    @Test func theEditorGoingAwayEndsTheServer() async throws {
        guard let binary = BTSExecutable.url else { return }
        let home = try makeTempDirectory("lsp-gone")
        defer { try? FileManager.default.removeItem(at: home) }
        let input = Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#) + "Content-Length: 99999999999\r\n\r\n"
        let outcome = try await ChildProcess.run(binary, ["lsp"], environment: ["HOME": home.path], stdin: input)
        #expect(outcome.status == 1, "stdin ended without shutdown: \(outcome)")
        #expect(Self.messages(outcome.stdout).count == 2, "the answer to initialize and the oversized message's error: \(outcome.stdout)")
    }
}
