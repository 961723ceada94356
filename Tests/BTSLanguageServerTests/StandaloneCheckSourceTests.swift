import Foundation
import Testing

/// `bts check`, `bts fmt` and `bts lsp` check with a ``ScriptChecker`` (a value with no backend),
/// never through a session: their sources name no `Shell`, so no request can reach a server from
/// them (the language server's initialiser takes a checker, not a session).
@Suite("standalone checks hold no session")
struct StandaloneCheckSourceTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    @Test func checkFormatAndTheLanguageServerNameNoSession() throws {
        var files = ["bts/CheckCommand.swift", "bts/FormatCommand.swift", "bts/LanguageServerCommand.swift"]
        let server = Self.sources.appendingPathComponent("BTSLanguageServer")
        files += try FileManager.default.contentsOfDirectory(atPath: server.path)
            .filter { $0.hasSuffix(".swift") }.map { "BTSLanguageServer/" + $0 }
        #expect(files.count > 5)
        let session = try Regex(#"\bShell\b"#)
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            if file == "bts/CheckCommand.swift" || file == "bts/LanguageServerCommand.swift" {
                #expect(text.contains("ScriptChecker("), "\(file) checks with a ScriptChecker")
            }
            let lines = text.split(separator: "\n").filter { $0.contains(session) }
            #expect(lines.isEmpty, "\(file) names the session type: \(lines)")
        }
    }
}
