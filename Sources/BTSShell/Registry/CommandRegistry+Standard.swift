import BTSLanguage

extension CommandRegistry {
    /// The registry of every bts command (SHELL.md).
    public static let standard = CommandRegistry(commands: missionCommands + metaCommands, settings: standardSettings)

    /// Settings of `set NAME VALUE`.
    public static let standardSettings: [SettingSpec] = [
        SettingSpec("output", type: .enumeration(OutputFormat.names),
                    help: "Output format: table, json, ndjson or csv", default: "table on a terminal, else json"),
        SettingSpec("color", type: .enumeration(["on", "off", "auto"]),
                    help: "Colour output (auto: on a terminal unless NO_COLOR is set)", default: "auto"),
        SettingSpec("timing", type: .enumeration(["on", "off"]),
                    help: "Print how long each command took", default: "off"),
        SettingSpec("wait", type: .enumeration(["on", "off"]),
                    help: "Wait (with a countdown) when a rate-limit budget is spent, instead of failing with exit 5",
                    default: "on"),
        SettingSpec("onerror", type: .enumeration(["stop", "continue"]),
                    help: "Whether a script stops at the first failing command", default: "stop"),
    ]

    static func limit(_ range: ClosedRange<Int>, default value: Int) -> OptionSpec {
        OptionSpec("limit", short: "n", type: .int(range), default: .int(value),
                   help: "Maximum number of results, \(range.lowerBound)–\(range.upperBound) (default \(value))")
    }

    static let watchOption = OptionSpec(
        "watch", short: "w", type: .flag, help: "Follow the job's progress live, then show its results")

    static let jobArgument = ArgumentSpec("JOB", "A job id, or 'last' for the most recent job", completion: .jobID)

    static let missionCommands: [CommandSpec] = [
        CommandSpec(
            "search", group: .mission,
            summary: "Find books by ISBN, title or author",
            discussion: """
                With a plain QUERY, an ISBN-looking query (10 or 13 digits, hyphens allowed, ISBN-10 may end \
                in X) is looked up by ISBN and anything else is searched as a title. A first word of 'isbn', \
                'title' or 'author' selects that search; quote it ('title') to search for the word itself. \
                --title and --author together run the advanced search.
                """,
            subcommands: [
                CommandSpec(
                    "isbn", group: .mission, summary: "Look up one book by ISBN-10 or ISBN-13",
                    positionals: [ArgumentSpec("ISBN", "ISBN-10 or ISBN-13 (hyphens allowed)", completion: .isbn)],
                    budgetClass: "search", examples: ["search isbn 9780441172719"]),
                CommandSpec(
                    "title", group: .mission, summary: "Search by title",
                    positionals: [ArgumentSpec("QUERY", "Title words", variadic: true, completion: .title)],
                    options: [limit(1...100, default: 20)],
                    budgetClass: "search", examples: ["search title dune --limit 5"]),
                CommandSpec(
                    "author", group: .mission, summary: "Search by author name",
                    positionals: [ArgumentSpec("NAME", "Author name", variadic: true)],
                    options: [limit(1...100, default: 20)],
                    budgetClass: "search", examples: ["search author frank herbert"]),
            ],
            positionals: [ArgumentSpec("QUERY", "An ISBN, or title words", optional: true, variadic: true,
                                       completion: .title)],
            options: [
                OptionSpec("title", short: "t", type: .string, valueName: "TITLE", help: "Title to search for",
                           completion: .title),
                OptionSpec("author", short: "a", type: .string, valueName: "NAME", help: "Author to search for"),
                limit(1...100, default: 20),
            ],
            budgetClass: "search",
            examples: [
                "search dune",
                "search 978-0-441-17271-9",
                "search title \"the left hand of darkness\" --limit 5",
                "search --title dune --author herbert",
            ],
            requirements: [.anyOf(["QUERY", "--title", "--author"]), .exclusive(["QUERY", "--title"])]),
        CommandSpec(
            "similar", group: .mission,
            summary: "Books similar to a given book (vector similarity)",
            discussion: "The source book itself is not listed. Fails with 'not found' when the catalog has no vector for it.",
            positionals: [ArgumentSpec("ISBN", "The book to start from (ISBN-10 or ISBN-13)", completion: .isbn)],
            options: [limit(1...50, default: 10)],
            gatingFeature: "similar_books", budgetClass: "similar",
            examples: ["similar 9780441172719", "similar ${_.results[0].isbn} --limit 5"]),
        CommandSpec(
            "semantic", group: .mission,
            summary: "Natural-language search over book descriptions",
            discussion: "All words form one query. This endpoint has a small budget (documented 5 per minute); `limits` shows what is left.",
            positionals: [ArgumentSpec("QUERY", "What you are looking for, in plain words", variadic: true)],
            options: [limit(1...50, default: 20)],
            gatingFeature: "semantic_search", budgetClass: "semantic",
            examples: ["semantic books about a desert planet and its politics", "semantic cozy mystery --limit 5"]),
        CommandSpec(
            "enrich", group: .mission,
            summary: "Fetch full metadata for books from the providers",
            discussion: """
                One ISBN runs a single enrichment and prints the book. Several ISBNs, or --from FILE (one ISBN \
                per line; blank lines and '#' comments ignored), start a batch enrichment job (at most 100 \
                books); --watch follows it.
                """,
            positionals: [ArgumentSpec("ISBN", "ISBNs to enrich", optional: true, variadic: true, completion: .isbn)],
            options: [
                OptionSpec("provider", short: "p", type: .enumeration(["auto", "google_books", "openlibrary", "isbndb"]),
                           default: .string("auto"), valueName: "PROVIDER",
                           help: "Preferred provider: auto, google_books, openlibrary or isbndb (default auto)",
                           completion: .provider),
                OptionSpec("from", short: "f", type: .path(extensions: ["txt", "csv"]), valueName: "FILE",
                           help: "Read the ISBNs from FILE (starts a batch job)"),
                watchOption,
            ],
            budgetClass: "enrich",
            examples: [
                "enrich 9780441172719",
                "enrich 9780441172719 --provider openlibrary",
                "enrich 9780441172719 9780553293357 --watch",
                "enrich --from isbns.txt --watch",
            ],
            requirements: [.anyOf(["ISBN", "--from"]), .exclusive(["ISBN", "--from"])]),
        CommandSpec(
            "import", group: .mission,
            summary: "Import a CSV file (e.g. a Goodreads export) as a background job",
            discussion: "The file must have a header row and 1–10,000 rows, at most 8 MB. --watch follows the job.",
            positionals: [ArgumentSpec("FILE", "The CSV file", type: .path(extensions: ["csv"]),
                                       completion: .filePath(extensions: ["csv"]))],
            options: [watchOption],
            budgetClass: "import",
            examples: ["import goodreads_library_export.csv --watch"]),
        CommandSpec(
            "watch", group: .mission,
            summary: "Follow a job's progress live, then show its results",
            discussion: "Uses server-sent events, falling back to polling. Ctrl-C stops watching; the job keeps running.",
            positionals: [ArgumentSpec("JOB", "A job id, or 'last' (the default)", optional: true, completion: .jobID)],
            budgetClass: "jobs",
            examples: ["watch", "watch last", "watch ${_.jobId}"]),
        CommandSpec(
            "recommend", group: .mission,
            summary: "This week's book recommendations",
            options: [limit(1...50, default: 10)],
            gatingFeature: "weekly_recommendations",
            examples: ["recommend", "recommend --limit 3"]),
    ]

    static let metaCommands: [CommandSpec] = [
        CommandSpec(
            "help", aliases: ["?"], group: .meta,
            summary: "Show the commands, or details of one command",
            positionals: [ArgumentSpec("COMMAND", "A command, optionally with its subcommand", type: .commandName,
                                       optional: true, variadic: true, completion: .command)],
            examples: ["help", "help search", "help search title"]),
        CommandSpec(
            "caps", group: .meta,
            summary: "Show the server's features and limits, and which commands they gate",
            discussion: "Capabilities are cached for an hour; --refresh fetches them now.",
            options: [OptionSpec("refresh", short: "r", type: .flag, help: "Fetch the capabilities again")],
            examples: ["caps", "caps --refresh"]),
        CommandSpec(
            "limits", group: .meta,
            summary: "Show the rate-limit budgets with reset countdowns",
            examples: ["limits"]),
        CommandSpec(
            "jobs", group: .meta,
            summary: "List the jobs started in this session",
            examples: ["jobs"]),
        CommandSpec(
            "status", group: .meta,
            summary: "Show a job's current status",
            positionals: [jobArgument], budgetClass: "jobs",
            examples: ["status last", "status ${_.jobId}"]),
        CommandSpec(
            "results", group: .meta,
            summary: "Show a finished job's results",
            positionals: [jobArgument], budgetClass: "jobs",
            examples: ["results last"]),
        CommandSpec(
            "cancel", group: .meta,
            summary: "Cancel a running job",
            positionals: [jobArgument], budgetClass: "jobs",
            examples: ["cancel last"]),
        CommandSpec(
            "connect", group: .meta,
            summary: "Switch to another server by URL or profile name",
            discussion: """
                Built-in profiles: production, staging, local. The target is checked first: when it cannot \
                be reached the current server stays (--force switches anyway). The line is never saved in history.
                """,
            positionals: [ArgumentSpec("TARGET", "A URL (http://host:port) or a profile name", completion: .profile)],
            options: [OptionSpec("force", short: "f", type: .flag, help: "Switch even when the server cannot be reached")],
            examples: ["connect local", "connect http://localhost:8787", "connect --force http://localhost:8787"],
            isSensitive: true),
        CommandSpec(
            "set", group: .meta,
            summary: "Change a setting or assign a variable; alone, list both",
            discussion: """
                Settings: output (table|json|ndjson|csv), color (on|off|auto), timing (on|off), wait (on|off), \
                onerror (stop|continue). Any other NAME assigns a variable, read back as $NAME.
                """,
            usage: ["set", "set NAME VALUE"],
            positionals: [
                ArgumentSpec("NAME", "A setting or variable name", optional: true, completion: .setting),
                ArgumentSpec("VALUE", "The new value", optional: true, completion: .none),
            ],
            examples: ["set output json", "set wait off", "set book ${_.results[0].isbn}"]),
        CommandSpec(
            "echo", group: .meta,
            summary: "Print the words, with variables interpolated",
            positionals: [ArgumentSpec("WORD", "Text to print", optional: true, variadic: true, completion: .variable)],
            examples: ["echo found ${_.totalCount} books", "echo $?"],
            takesRawArguments: true),
        CommandSpec(
            "sleep", group: .meta,
            summary: "Pause for a while (interruptible)",
            positionals: [ArgumentSpec("DURATION", "500ms, 2s, 1.5 (seconds), 3m, 1h", type: .duration)],
            examples: ["sleep 2s", "sleep 500ms"]),
        CommandSpec(
            "source", aliases: ["."], group: .meta,
            summary: "Run the commands of a script file",
            positionals: [ArgumentSpec("FILE", "A .bts script", type: .path(extensions: ["bts"]),
                                       completion: .filePath(extensions: ["bts"]))],
            examples: ["source setup.bts"]),
        CommandSpec(
            "expect", group: .meta,
            summary: "Check a condition; a failure stops the script with exit 4",
            discussion: """
                Forms: A == B, A != B, A > B, A >= B, A < B, A <= B (numeric when both sides are numbers), \
                A contains B (substring, array element or object key), A matches REGEX (a linear-time engine: no backreferences or lookaround), exists ${PATH}, \
                count ${PATH} OP N (elements of an array/object, characters of a string), and a single value \
                (true when non-empty and not false/0). 'not' in front negates. Operators are unquoted words. \
                Both sides are printed when it fails; a missing path on either side is a failure (exit 4).
                """,
            positionals: [ArgumentSpec("EXPR", "The condition", variadic: true, completion: .variable)],
            examples: ["expect ${_.totalCount} > 0", "expect ${_.results[0].title} contains \"Dune\"",
                       "expect count ${_.results} >= 3", "expect exists ${_.results[0].isbn}",
                       "expect ${_.results[0].isbn} matches '^97[89]'"],
            takesRawArguments: true),
        CommandSpec(
            "history", group: .meta,
            summary: "Show the command history",
            examples: ["history"]),
        CommandSpec(
            "timing", group: .meta,
            summary: "Turn the per-command timing display on or off (toggles without argument)",
            positionals: [ArgumentSpec("STATE", "on or off", type: .enumeration(["on", "off"]), optional: true)],
            examples: ["timing", "timing on"]),
        CommandSpec(
            "exit", aliases: ["quit"], group: .meta,
            summary: "Leave the shell (default status: that of the last command)",
            positionals: [ArgumentSpec("CODE", "Exit status 0–255", type: .int(0...255), optional: true)],
            examples: ["exit", "exit 3"]),
    ]
}
