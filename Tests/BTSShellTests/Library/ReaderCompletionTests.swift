import Foundation
import Testing

@testable import BTSShell

/// What completion knows of the reader without a session (`bts lsp`'s): the library's shelves,
/// tags, ISBNs and titles as a session reads them, and no library file made where there is none.
@Suite("reader completion")
struct ReaderCompletionTests {
    static func environment(_ home: URL) -> [String: String] {
        [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
        ]
    }

    @Test func theLibraryIsReadAsASessionReadsIt() async throws {
        try await withShell { shell in
            try shell.write("gr.csv", try LibraryFixtures.text("goodreads_library_export.csv"))
            #expect(await shell.run("library import gr.csv") == 0, "\(shell.err)")
            let session = CompletionContextStore()
            await shell.shell.updateCompletionContext(session)
            let reader = CompletionContextStore()
            await ReaderCompletion.note(in: reader, environment: Self.environment(shell.directory))
            let (read, kept) = (reader.completionContext, session.completionContext)
            #expect(!read.shelves.isEmpty && read.shelves == kept.shelves, "\(read.shelves)")
            #expect(!read.tags.isEmpty && read.tags == kept.tags, "\(read.tags)")
            #expect(read.profiles == Set(BackendProfile.builtIn.map(\.name)))
            let line = "save --shelf "
            let offered = CompletionEngine(context: reader).answer(line: line, cursorOffset: line.utf8.count).candidates
            #expect(offered.contains("read") && offered.contains("to-read"), "\(offered)")
        }
    }

    @Test func noLibraryIsMadeWhereThereIsNone() async throws {
        let home = try makeTempDirectory("reader")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = Self.environment(home)
        let store = CompletionContextStore()
        await ReaderCompletion.note(in: store, environment: environment)
        #expect(store.completionContext.shelves.isEmpty)
        let path = try #require(LibraryState.path(environment: environment))
        #expect(!FileManager.default.fileExists(atPath: path.path))
    }
}
