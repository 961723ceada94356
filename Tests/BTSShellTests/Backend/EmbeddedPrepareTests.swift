import BTSEmbeddedBackend
import BTSShell
import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Synchronization
import Testing

/// The embedded backend that records what it is asked to prepare (and otherwise is the real one).
private final class RecordingBackend: EmbeddedBackend {
    let inner: LocalEmbeddedBackend
    let prepared = Mutex<[CapabilityFeature]>([])

    init(inner: LocalEmbeddedBackend) { self.inner = inner }

    func start(cacheDirectory: URL) async throws(ShellError) -> any RunningBackend {
        try await inner.start(cacheDirectory: cacheDirectory)
    }

    func prepare(for feature: CapabilityFeature) {
        prepared.withLock { $0.append(feature) }
        inner.prepare(for: feature)
    }
}

/// A gated call tells the embedded backend what it is about to need before the backend opens
/// (`semantic` starts the sentence model's load while the server starts): only the embedded
/// backend is told, and only for the gated calls.
@Suite struct EmbeddedPrepareTests {
    @Test func semanticPreparesTheEmbeddedBackendAndATitleSearchDoesNot() async throws {
        nonisolated(unsafe) var recorder: RecordingBackend?
        let harness = try ShellHarness.make(embedded: { inner in
            let backend = RecordingBackend(inner: inner)
            recorder = backend
            return backend
        })
        let backend = try #require(recorder)
        #expect(await harness.run("search title hobbit --limit 1") == 0, "\(harness.err)")
        #expect(backend.prepared.withLock { $0 }.isEmpty)
        _ = await harness.run("semantic a boy wizard at a school of magic --limit 1")
        #expect(backend.prepared.withLock { $0 } == [.semanticSearch])
        await harness.close()
    }

    @Test func aServerElsewhereIsNotTold() async throws {
        nonisolated(unsafe) var recorder: RecordingBackend?
        let harness = try ShellHarness.make(
            backend: BackendRequest(apiURL: "http://127.0.0.1:\(closedPort())"),
            embedded: { inner in
                let backend = RecordingBackend(inner: inner)
                recorder = backend
                return backend
            }
        )
        let backend = try #require(recorder)
        #expect(await harness.run("semantic a boy wizard at a school of magic --limit 1") != 0)
        #expect(backend.prepared.withLock { $0 }.isEmpty)
        await harness.close()
    }
}

/// The real embedded backend, saying its catalog is still to be built.
private struct UnbuiltCatalogBackend: EmbeddedBackend {
    let inner: LocalEmbeddedBackend

    func start(cacheDirectory: URL) async throws(ShellError) -> any RunningBackend {
        try await inner.start(cacheDirectory: cacheDirectory)
    }

    func buildsCatalog(cacheDirectory: URL) -> Bool { true }
}

/// The first run builds the catalog's database for a few seconds: the shell says so where progress
/// shows, once per opening of the backend; a pipe without `set progress on` stays silent.
@Suite struct CatalogBuildNoteTests {
    static let note = "building the catalog database (once: a few seconds)…"

    @Test func theBuildIsAnnouncedWhereProgressShows() async throws {
        let harness = try ShellHarness.make(embedded: { UnbuiltCatalogBackend(inner: $0) })
        #expect(
            await harness.run("set progress on; search title hobbit --limit 1; search title dune --limit 1") == 0,
            "\(harness.err)"
        )
        #expect(harness.err.components(separatedBy: Self.note).count == 2, "once: \(harness.err)")
        await harness.close()
        let quiet = try ShellHarness.make(embedded: { UnbuiltCatalogBackend(inner: $0) })
        #expect(await quiet.run("search title hobbit --limit 1") == 0, "\(quiet.err)")
        #expect(!quiet.err.contains(Self.note), "\(quiet.err)")
        await quiet.close()
    }
}
