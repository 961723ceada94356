import BooksTrackContract
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The jobs a user started, remembered across restarts in `$XDG_STATE_HOME/bts/jobs.json` (directory
/// 0700, file 0600: job tokens are in it, as in the server's own job store), per backend. The
/// embedded backend is never remembered: its server keeps its jobs in a temporary directory that
/// ends with the session, so a remembered id could only ever say "not found".
struct SessionJobStore: Sendable, Hashable {
    /// At most this many jobs per backend are kept (the newest).
    static let limit = 50
    /// The file's size bound when read.
    static let maxBytes = 4 * 1024 * 1024

    let file: URL

    init(stateDirectory: URL) {
        file = stateDirectory.appending(path: "jobs.json", directoryHint: .notDirectory)
    }

    private struct Entry: Codable {
        var backend: String
        var id: String
        var kind: String
        var token: String?
        var startedAt: Date
        var totalCount: Int?
        var processedCount: Int?
        var status: String
        var source: String
    }

    private func readAll() -> [Entry] {
        guard let data = FileManager.default.contents(atPath: file.path), data.count <= Self.maxBytes else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode([Entry].self, from: data)) ?? []
    }

    /// The remembered jobs of `backend`, oldest first.
    func load(backend: String) -> [SessionJob] {
        readAll().filter { $0.backend == backend }.compactMap { entry in
            guard let pipeline = Pipeline(commandName: entry.kind),
                let status = SessionJobStatus(rawValue: entry.status)
            else { return nil }
            return SessionJob(
                id: entry.id,
                pipeline: pipeline,
                token: entry.token,
                startedAt: entry.startedAt,
                totalCount: entry.totalCount,
                processedCount: entry.processedCount,
                status: status,
                source: entry.source
            )
        }
    }

    /// Replaces what is remembered for `backend` with `jobs` (the newest ``limit``); other backends'
    /// jobs stay. Best effort: a state directory that cannot be written loses nothing but memory.
    func save(_ jobs: [SessionJob], backend: String) {
        var entries = readAll().filter { $0.backend != backend }
        entries += jobs.suffix(Self.limit).map { job in
            Entry(
                backend: backend,
                id: job.id,
                kind: job.pipeline.commandName,
                token: job.token,
                startedAt: job.startedAt,
                totalCount: job.totalCount,
                processedCount: job.processedCount,
                status: job.status.rawValue,
                source: job.source
            )
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(entries) else { return }
        let manager = FileManager.default
        let directory = file.deletingLastPathComponent()
        try? manager.createDirectory(
            at: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let temporary = directory.appendingPathComponent(".jobs.json.\(UUID().uuidString)")
        guard manager.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            return
        }
        if rename(temporary.path, file.path) != 0 { try? manager.removeItem(at: temporary) }
    }
}
