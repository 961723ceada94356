import BTSLanguage

/// What each command of the registry leaves in `$_`, by command path (`search`, `library list`):
/// a declared ``ResultShape``, nothing (the command leaves `$_` as it was), or the server's answer
/// itself (`api`). Every command is in exactly one of the three; a test runs them and holds each
/// value to its shape.
package enum CommandResults {
    /// The commands with a declared result, by path (a subcommand's path when they differ).
    package static let shapes: [String: ResultShape] = [
        "search": .bookList, "more": .bookList, "semantic": .bookList,
        "similar": .similarList,
        "recommend": .recommendations,
        "enrich": ResultShape.enrichedBook.union(.job).union(.jobResults),
        "import": ResultShape.job.union(.jobResults),
        "scan": ResultShape.job.union(.jobResults),
        "watch": .jobResults,
        "results": .jobResults,
        "status": .jobStatus,
        "jobs": [ResultShape.Field("jobs", .list(.record(.job)), "the session's jobs")],
        "cancel": .cancellation,
        "caps": .capabilities,
        "limits": .limits,
        "connect": .connection,
        "cache show": .cacheSummary,
        "cache entries": .cacheEntries,
        "cache clear": [
            ResultShape.Field("backend", .string, "the backend whose cache was cleared"),
            ResultShape.Field("removed", .number, "stored answers removed"),
            ResultShape.Field("files", .number, "the cache files cleared (--all: one a backend)"),
        ],
        "library list": .libraryBooks,
        "library search": .libraryBooks,
        "library show": .libraryBook,
        "library set": .libraryBook,
        "library remove": [ResultShape.Field("removed", .record(.libraryBook), "the book removed")],
        "library shelves": [
            ResultShape.Field(
                "shelves",
                .list(
                    .record([
                        ResultShape.Field("name", .string, "the shelf's or tag's name"),
                        ResultShape.Field("kind", .string, "shelf or tag"),
                        ResultShape.Field("count", .number, "its books"),
                    ])
                ),
                "the shelves and tags in use"
            )
        ],
        "library stats": .libraryStats,
        "library export": [
            ResultShape.Field("file", .string, "the file written"),
            ResultShape.Field("format", .string, "goodreads"),
            ResultShape.Field("count", .number, "books written"),
        ],
        "library import": [
            ResultShape.Field("file", .string, "the file read"),
            ResultShape.Field("format", .string, "goodreads or storygraph"),
            ResultShape.Field("rows", .number, "books read from it"),
            ResultShape.Field("library", .record(.saveSummary), "what it did to your library"),
            ResultShape.Field(
                "problems",
                .list(
                    .record([
                        ResultShape.Field("row", .number, "the file's row"),
                        ResultShape.Field("problem", .string, "what is wrong with it"),
                    ])
                ),
                "rows left out"
            ),
        ],
    ]

    /// The commands that leave `$_` as it was (or as the commands they run left it: `every`, `source`).
    package static let leavesResult: Set<String> = [
        "help", "set", "echo", "sleep", "every", "source", "expect", "alias", "unalias", "history", "timing", "exit",
        "save",
    ]

    /// The commands whose result is whatever the server answered: nothing is declared.
    package static let serverAnswer: Set<String> = ["api"]

    /// The declared result of the command at `path` (`["library", "list"]`, `["search", "title"]`):
    /// the subcommand's shape, else the command's; nil when none is declared.
    package static func shape(for path: [String]) -> ResultShape? {
        if path.count >= 2, let shape = shapes[path.prefix(2).joined(separator: " ")] { return shape }
        return path.first.flatMap { shapes[$0] }
    }

    /// Every shape a command declares, merged: what `$_` may hold when the command is not known.
    package static let anyResult: ResultShape = shapes.keys.sorted().reduce(ResultShape([])) { merged, key in
        shapes[key].map { merged.union($0) } ?? merged
    }
}
