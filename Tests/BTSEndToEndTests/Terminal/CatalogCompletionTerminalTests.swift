import Foundation
import Testing

/// TAB completes an author from the embedded backend's catalog at the first prompt, before any
/// command has started the backend.
@Suite(
    "catalog completion in a terminal",
    .serialized,
    .enabled(if: BTSBinary.isAvailable && TmuxSession.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct CatalogCompletionTerminalTests {
    static let prompt = "bts:embedded> "

    @Test("search author \"j.r.r. tolk<TAB> completes the catalog's name, then the search runs")
    func completesAnAuthor() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local", "--norc"])
        defer { session.close() }
        try await session.see(Self.prompt, timeout: .seconds(120))
        try session.type("search author \"j.r.r. tolk")
        try session.press("Tab")
        try await session.see(Self.prompt + "search author \"J.R.R. Tolkien\"", timeout: .seconds(30))
        try session.press("Enter")
        try await session.see("The Hobbit", timeout: .seconds(60))
        try await session.waitForLastLine(Self.prompt)
    }
}
