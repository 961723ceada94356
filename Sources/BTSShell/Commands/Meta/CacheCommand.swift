import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `cache show|entries|clear`: the on-disk response cache of the session's backend. No subcommand
/// opens the backend (they work offline). Each subcommand is a type of its own.
struct CacheCommand: CommandFamily {
    static let result: CommandResult = .ofSubcommand

    static let configuration = CommandSpec(
        "cache",
        group: .meta,
        summary: "Show or clear the response cache of this backend",
        discussion: """
            Answers of a remote server are kept in $XDG_CACHE_HOME/bts/responses-<backend>.sqlite (else \
            ~/.cache/bts/…): ISBN lookups 7 days, searches 5 minutes, similar books and weekly \
            recommendations until Sunday 00:00 UTC, unless the server's Cache-Control says otherwise. A \
            stale answer with an ETag is revalidated; any stored answer serves when the server cannot be \
            reached ('set offline never' to fail instead). --no-cache makes one command ask the server. \
            The embedded backend's answers are not cached.
            """,
        examples: ["cache show", "cache entries", "cache clear"]
    )

    static let subcommands: [any ShellCommand.Type] = [Show.self, Entries.self, Clear.self]

    /// `cache show`.
    struct Show: ShellCommand {
        static let result: CommandResult = .shape(.cacheSummary)

        static let configuration = CommandSpec(
            "show",
            group: .meta,
            summary: "Show the cache's file, size and entry count",
            examples: ["cache show"]
        )

        init(_ resolved: ResolvedCommand) {}

        func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
            let (backend, _, found) = try context.responseCache()
            guard let cache = found else {
                let value = JSONValue.record([("backend", backend.json), ("cached", .bool(false))])
                return CommandOutput(value: value, view: .text("The \(backend)'s answers are not cached.\n"))
            }
            let summary = cache.summary(now: Date())
            let value = JSONValue.record([
                ("backend", backend.json), ("cached", .bool(true)), ("file", cache.fileURL.path.json),
                ("entries", summary.entries.json), ("fresh", summary.fresh.json), ("bytes", summary.bytes.json),
                ("fileBytes", summary.fileBytes.json), ("maxBytes", cache.maxBytes.json),
            ])
            let fields = ["backend", "file", "entries", "fresh", "bytes", "fileBytes", "maxBytes"].map {
                RecordField($0)
            }
            return CommandOutput(value: value, view: .record(fields: fields))
        }
    }

    /// `cache entries [--limit N]`.
    struct Entries: ShellCommand {
        static let result: CommandResult = .shape(.cacheEntries)

        static let limit = CommandSpec.limit(1...10_000, default: 50)

        static let configuration = CommandSpec(
            "entries",
            group: .meta,
            summary: "List the cached answers, most recently used first",
            options: [limit.spec],
            examples: ["cache entries --limit 10"]
        )

        var limit: Int

        init(_ resolved: ResolvedCommand) {
            limit = resolved[Self.limit]
        }

        func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
            let (backend, _, found) = try context.responseCache()
            let now = Date()
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
            return CommandOutput(
                value: value,
                view: .table(
                    columns: columns,
                    rowsKey: "entries",
                    footer: nil,
                    empty: found == nil ? "(the \(backend)'s answers are not cached)" : "(no cached answers)"
                )
            )
        }
    }

    /// `cache clear [--all]`.
    struct Clear: ShellCommand {
        static let result: CommandResult = .shape([
            ResultShape.Field("backend", .string, "the backend whose cache was cleared"),
            ResultShape.Field("removed", .number, "stored answers removed"),
            ResultShape.Field("files", .number, "the cache files cleared (--all: one a backend)"),
        ])

        static let all = OptionSpec("all", type: .flag, help: "Clear the cache of every backend, not only this one")

        static let configuration = CommandSpec(
            "clear",
            group: .meta,
            summary: "Remove the cached answers",
            options: [all],
            examples: ["cache clear", "cache clear --all"]
        )

        var all: Bool

        init(_ resolved: ResolvedCommand) {
            all = resolved.flag(Self.all)
        }

        func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
            let (backend, directory, found) = try context.responseCache()
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
            let text =
                all
                ? "Removed \(removed) cached answers (\(files) backends).\n"
                : "Removed \(removed) cached answer\(removed == 1 ? "" : "s") of the \(backend).\n"
            return CommandOutput(value: value, view: .text(text))
        }
    }
}
