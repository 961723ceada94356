import Foundation
import Testing

/// Ctrl-C during `watch` at 80 columns: the detach is said once, in lines that fit the
/// width whole (the job id is never broken), and not followed by "interrupted".
extension InteractiveShellTests {
    @Test("Ctrl-C during watch says the detach once, in lines that fit 80 columns")
    func watchDetachMessageFits80Columns() async throws {
        let sandbox = try TerminalSandbox()
        let server = try await ServeProcess(extra: ["--job-pacing", "1000"], sandbox: sandbox)
        defer { server.stop() }
        try Data(
            "Title,Author,ISBN13\nThe Hunger Games,Suzanne Collins,9780439023481\nCatching Fire,Suzanne Collins,9780439023498\nMockingjay,Suzanne Collins,9780439023511\n"
                .utf8
        )
        .write(to: sandbox.work.appendingPathComponent("three.csv"))
        let session = try sandbox.startShell(["--api", "http://127.0.0.1:\(server.port)"], width: 80)
        defer { session.close() }
        let prompt = "bts:127.0.0.1:\(server.port)> "
        try await session.see(prompt, timeout: Self.startup)
        try session.type("import three.csv --watch")
        try session.press("Enter")
        try await session.see("%", timeout: .seconds(30))  // the progress bar is drawn
        try session.press("C-c")
        let screen = try await session.waitForScreen(
            timeout: .seconds(20),
            description: "the detach message and the prompt"
        ) {
            $0.contains("follows it again") && TmuxSession.lastLine($0) == TmuxSession.trimmingTrailingBlanks(prompt)
        }
        let lines = screen.split(separator: "\n").map(String.init)
        let detach = try #require(lines.firstIndex { $0.hasPrefix("detached from job ") })
        let id = lines[detach].dropFirst("detached from job ".count).prefix { !$0.isWhitespace }
        #expect(id.count == 36, "the whole id on one line: \(lines[detach])")
        #expect(lines[detach + 1] == "'watch \(id)' follows it again", "\(screen)")
        #expect(!screen.contains("interrupted"), "\(screen)")
        #expect(screen.components(separatedBy: "detached from job").count == 2, "said once: \(screen)")
    }
}
