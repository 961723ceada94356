import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `cache show|entries|clear`: the on-disk response cache of the session's backend. No subcommand
/// opens the backend (they work offline).
struct CacheCommand: ShellCommand {
    static let limit = CommandSpec.limit(1...10_000, default: 50)
    static let all = OptionSpec("all", type: .flag, help: "Clear the cache of every backend, not only this one")

    static let configuration = CommandSpec(
        "cache", group: .meta,
        summary: "Show or clear the response cache of this backend",
        discussion: """
            Answers of a remote server are kept in $XDG_CACHE_HOME/bts/responses-<backend>.sqlite (else \
            ~/.cache/bts/…): ISBN lookups 7 days, searches 5 minutes, similar books and weekly \
            recommendations until Sunday 00:00 UTC, unless the server's Cache-Control says otherwise. A \
            stale answer with an ETag is revalidated; any stored answer serves when the server cannot be \
            reached ('set offline never' to fail instead). --no-cache makes one command ask the server. \
            The embedded backend's answers are not cached.
            """,
        subcommands: [
            CommandSpec("show", group: .meta, summary: "Show the cache's file, size and entry count",
                        examples: ["cache show"]),
            CommandSpec("entries", group: .meta, summary: "List the cached answers, most recently used first",
                        options: [limit], examples: ["cache entries --limit 10"]),
            CommandSpec("clear", group: .meta, summary: "Remove the cached answers", options: [all],
                        examples: ["cache clear", "cache clear --all"]),
        ],
        examples: ["cache show", "cache entries", "cache clear"])

    enum Action: Sendable {
        case show
        case entries(limit: Int)
        case clear(all: Bool)
    }

    var action: Action

    init(_ resolved: ResolvedCommand) {
        switch resolved.path.dropFirst().first {
        case "entries": action = .entries(limit: resolved.int(Self.limit) ?? 50)
        case "clear": action = .clear(all: resolved.flag(Self.all))
        default: action = .show
        }
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let (backend, directory, found) = try context.responseCache()
        let now = Date()
        switch action {
        case .show:
            guard let cache = found else {
                let value = JSONValue.record([("backend", backend.json), ("cached", .bool(false))])
                return CommandOutput(value: value, view: .text("The \(backend)'s answers are not cached.\n"))
            }
            let summary = cache.summary(now: now)
            let value = JSONValue.record([
                ("backend", backend.json), ("cached", .bool(true)), ("file", cache.fileURL.path.json),
                ("entries", summary.entries.json), ("fresh", summary.fresh.json), ("bytes", summary.bytes.json),
                ("fileBytes", summary.fileBytes.json), ("maxBytes", cache.maxBytes.json),
            ])
            let fields = ["backend", "file", "entries", "fresh", "bytes", "fileBytes", "maxBytes"].map { RecordField($0) }
            return CommandOutput(value: value, view: .record(fields: fields))
        case .entries(let limit):
            let rows = (found?.entries(limit: limit) ?? []).map { entry -> JSONValue in
                .record([
                    ("key", entry.key.json), ("status", entry.status.json),
                    ("ageSeconds", max(0, Int(now.timeIntervalSince(entry.storedAt))).json),
                    ("expiresInSeconds", Int(entry.expiresAt.timeIntervalSince(now)).json),
                    ("fresh", .bool(entry.isFresh(at: now))), ("etag", entry.etag.json),
                ])
            }
            let value = JSONValue.record([("backend", backend.json), ("entries", .array(rows))])
            let columns = [
                TableColumn("key", "REQUEST", flexible: true), .number("ageSeconds", "AGE (s)"),
                .number("expiresInSeconds", "EXPIRES IN (s)"), TableColumn("fresh", "FRESH"),
            ]
            return CommandOutput(value: value, view: .table(
                columns: columns, rowsKey: "entries", footer: nil,
                empty: found == nil ? "(the \(backend)'s answers are not cached)" : "(no cached answers)"))
        case .clear(let all):
            var removed = all ? 0 : found?.clear() ?? 0
            var files = 0
            if all {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                for name in names where name.hasPrefix("responses-") && name.hasSuffix(".sqlite") {
                    let cache = ResponseDiskCache(fileURL: directory.appendingPathComponent(name))
                    removed += cache.clear()
                    files += 1
                }
            }
            let value = JSONValue.record([("backend", backend.json), ("removed", removed.json), ("files", files.json)])
            let text = all ? "Removed \(removed) cached answers (\(files) backends).\n"
                : "Removed \(removed) cached answer\(removed == 1 ? "" : "s") of the \(backend).\n"
            return CommandOutput(value: value, view: .text(text))
        }
    }
}
