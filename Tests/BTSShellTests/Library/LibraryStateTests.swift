import Foundation
import Testing

@testable import BTSShell

/// The session's handle on the library as a value: which file `set library` names, opened once,
/// the scratch one made on first use and removed, and completion never making the reader's file.
@Suite("library state")
struct LibraryStateTests {
    @Test func theReadersLibraryIsOpenedOnceAtItsPath() throws {
        let home = try makeTempDirectory("library-state")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("mine.sqlite")
        let environment = ["BTS_LIBRARY": file.path, "HOME": home.path]
        #expect(LibraryState.path(environment: environment) == file)
        let relative = ["BTS_LIBRARY": "relative.sqlite", "HOME": home.path]
        #expect(LibraryState.path(environment: relative) == XDGPaths(environment: relative).libraryFile)
        var state = LibraryState()
        #expect(state.forCompletion(.yours, environment: environment) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path), "completion never makes the reader's file")
        _ = try state.open(.yours, environment: environment)
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(state.openedFor == .yours)
        state.completionStale = false
        _ = try state.open(.yours, environment: environment)
        #expect(!state.completionStale, "an open library is not opened again")
        #expect(state.forCompletion(.yours, environment: environment) != nil)
    }

    @Test func theScratchLibraryIsMadeOnFirstUseAndRemoved() throws {
        var state = LibraryState()
        _ = try state.open(.scratch, environment: [:])
        let directory = try #require(state.scratchDirectory)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("library.sqlite").path))
        #expect(state.openedFor == .scratch)
        state.removeScratch()
        #expect(state.scratchDirectory == nil)
        #expect(state.library == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }
}
