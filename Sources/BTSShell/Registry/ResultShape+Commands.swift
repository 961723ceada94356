import BTSLanguage

/// The shapes of the values the commands leave in `$_`, stated once for every command of the
/// registry (``CommandResults``), and of `$_http` and a failure's value.
extension ResultShape {
    // MARK: Books

    /// A book of a search's `results`.
    package static let book: ResultShape = [
        Field("isbn", .string, "the book's ISBN-13"),
        Field("title", .string, "the book's title"),
        Field("authors", .list(.string), "the book's authors", optional: true),
        Field("year", .number, "the year it was first published", optional: true),
        Field("publisher", .string, "the publisher", optional: true),
        Field("publishedDate", .string, "the date of this edition", optional: true),
        Field("pageCount", .number, "how many pages it has", optional: true),
        Field("language", .string, "its language code", optional: true),
        Field("format", .string, "its format (hardcover, paperback, ebook, audiobook)", optional: true),
        Field("coverUrl", .string, "the cover image's URL", optional: true),
        Field("score", .number, "how well it matches (semantic search: 0–1)", optional: true),
        Field("categories", .list(.string), "its subjects", optional: true),
        Field("inLibrary", .bool, "answered from your library (the server could not be reached)", optional: true),
        Field("shelf", .string, "its shelf in your library (answered from it)", optional: true),
    ]

    /// `search`, `more`, `semantic`: a page of books and how many there are in all.
    package static let bookList: ResultShape = [
        Field("query", .string, "what was searched"),
        Field("kind", .string, "which search: isbn, title, author, advanced or semantic"),
        Field("totalCount", .number, "how many results the search has in all"),
        Field("count", .number, "how many results this page holds"),
        Field("results", .list(.record(book)), "the books of this page"),
        Field("offset", .number, "how many results come before this page ('more')", optional: true),
        Field("correctedQuery", .string, "the corrected query the server searched instead", optional: true),
        Field(
            "answeredBy",
            .string,
            "library: answered from your library (the server could not be reached)",
            optional: true
        ),
    ]

    /// A book `similar` found.
    package static let similarBook: ResultShape = [
        Field("isbn", .string, "the book's ISBN-13"),
        Field("title", .string, "the book's title"),
        Field("authors", .list(.string), "the book's authors", optional: true),
        Field("score", .number, "how similar it is (0–1)"),
        Field("coverUrl", .string, "the cover image's URL", optional: true),
        Field("because", .string, "the book of your library it is most like (--library)", optional: true),
        Field("inLibrary", .bool, "answered from your library (the server could not be reached)", optional: true),
    ]

    /// `similar ISBN` (and `similar TITLE`), or answered from the library.
    static let similarToOne: ResultShape = [
        Field("sourceIsbn", .string, "the ISBN of the book asked about"),
        Field("sourceTitle", .string, "the title it was found by (similar TITLE…)", optional: true),
        Field("totalCount", .number, "how many similar books there are"),
        Field("count", .number, "how many are listed"),
        Field("results", .list(.record(similarBook)), "the similar books, most similar first"),
        Field(
            "answeredBy",
            .string,
            "library: answered from your library (the server could not be reached)",
            optional: true
        ),
    ]

    /// `similar --library`: books like those of a shelf, not in the library.
    static let similarToLibrary: ResultShape = [
        Field("source", .string, "the shelf or the library the books are like"),
        Field("seeds", .list(.string), "the ISBNs asked about"),
        Field("seedsAnswered", .number, "how many of them had similar books"),
        Field("count", .number, "how many books are listed"),
        Field("results", .list(.record(similarBook)), "the books, most similar first"),
    ]

    /// `similar`, either way.
    package static let similarList = similarToOne.union(similarToLibrary)

    /// A recommended book.
    static let recommendedBook: ResultShape = [
        Field("isbn", .string, "the book's ISBN-13", optional: true),
        Field("title", .string, "the book's title"),
        Field("authors", .list(.string), "the book's authors", optional: true),
        Field("reason", .string, "why it is recommended", optional: true),
        Field("score", .number, "how strongly it is recommended", optional: true),
        Field("like", .string, "the book of your library it is like (--library)", optional: true),
        Field("shelves", .list(.string), "the catalog's shelves it is on (--library)", optional: true),
        Field("coverUrl", .string, "the cover image's URL", optional: true),
        Field("inLibrary", .bool, "whether it is already in your library", optional: true),
    ]

    /// `recommend`: the week's picks, or (`--library`) picks for the library.
    package static let recommendations = ResultShape([
        Field("weekOf", .string, "the week the picks are for"),
        Field("count", .number, "how many picks are listed"),
        Field("results", .list(.record(recommendedBook)), "the recommended books"),
        Field("generatedAt", .string, "when the picks were made", optional: true),
        Field("nextRefresh", .string, "when the next picks are due", optional: true),
        Field("message", .string, "the server's note (no picks yet)", optional: true),
    ]).union([
        Field("source", .string, "library: picked for your library"),
        Field("strategy", .string, "how they were picked"),
        Field("seeds", .number, "how many of your books they were picked from"),
        Field("count", .number, "how many picks are listed"),
        Field("results", .list(.record(recommendedBook)), "the recommended books"),
    ])

    /// `enrich ISBN`: one book's enriched record.
    static let enrichedBook: ResultShape = [
        Field("isbn", .string, "the book's ISBN"),
        Field("title", .string, "the book's title"),
        Field("authors", .list(.string), "the book's authors"),
        Field("publisher", .string, "the publisher", optional: true),
        Field("publishedDate", .string, "the publication date", optional: true),
        Field("description", .string, "the book's description", optional: true),
        Field("pageCount", .number, "how many pages it has", optional: true),
        Field("categories", .list(.string), "its subjects", optional: true),
        Field("coverUrl", .string, "the cover image's URL", optional: true),
        Field("provider", .string, "which provider the data came from"),
        Field("enrichedAt", .string, "when it was enriched"),
        Field("vectorized", .bool, "whether it has an embedding for semantic search"),
        Field("library", .record(saveSummary), "what saving it did to your library", optional: true),
    ]

    // MARK: Jobs

    /// A job the session started, as `jobs` lists it (and `import`, `scan`, `enrich` with several
    /// ISBNs answer when they do not follow the job).
    package static let job: ResultShape = [
        Field("jobId", .string, "the job's ID"),
        Field("kind", .string, "which command started it: import, enrich or scan"),
        Field("status", .string, "initialized, processing, completed, failed or canceled"),
        Field("source", .string, "what it was started from (a file, the ISBNs)", optional: true),
        Field("processedCount", .number, "how many items are done", optional: true),
        Field("totalCount", .number, "how many items it has", optional: true),
        Field("startedAt", .string, "when it started (ISO 8601)"),
    ]

    /// `status JOB`.
    static let jobStatus: ResultShape = [
        Field("jobId", .string, "the job's ID"),
        Field("status", .string, "initialized, processing, completed, failed or canceled"),
        Field("progress", .number, "how far it is (0–1)"),
        Field("processedCount", .number, "how many items are done", optional: true),
        Field("totalCount", .number, "how many items it has", optional: true),
        Field("pipeline", .string, "csv_import, batch_enrichment or bookshelf_scan"),
        Field("startTime", .number, "when it started (milliseconds since 1970)"),
        Field("completedTime", .number, "when it ended (milliseconds since 1970)", optional: true),
        Field("error", .object, "the server's error (a failed job)", optional: true),
        Field("reason", .string, "the error as a sentence (a failed job)", optional: true),
    ]

    /// What saving books did to the library.
    static let saveSummary: ResultShape = [
        Field("created", .number, "books added"),
        Field("updated", .number, "books updated"),
        Field("alreadyThere", .number, "books already there, unchanged"),
        Field("skipped", .number, "books left out"),
    ]

    /// A book of an enrichment job's results.
    static let batchItem: ResultShape = [
        Field("isbn", .string, "the book's ISBN"),
        Field("title", .string, "the book's title", optional: true),
        Field("success", .bool, "whether it was enriched"),
        Field("error", .string, "why not", optional: true),
    ]

    /// A book a scan found.
    static let scannedBook: ResultShape = [
        Field("title", .string, "the title read", optional: true),
        Field("author", .string, "the author read", optional: true),
        Field("isbn", .string, "the ISBN read", optional: true),
        Field("confidence", .number, "how sure the scan is (0–1)"),
        Field("review", .string, "review: below 0.8, to check"),
        Field("approved", .bool, "whether it is sure enough to save"),
        Field("enrichmentStatus", .string, "how its enrichment went", optional: true),
        Field("photo", .any, "which photo it is in (from 1)"),
        Field("boundingBox", .any, "where in the photo"),
    ]

    /// A book an import matched by title, not by ISBN.
    static let importMatch: ResultShape = [
        Field("row", .number, "the file's data row"),
        Field("csvTitle", .string, "the title in the file"),
        Field("matchedTitle", .string, "the title it matched"),
        Field("matchedAuthors", .list(.string), "the matched book's authors", optional: true),
        Field("isbn", .string, "the matched book's ISBN", optional: true),
        Field("matchedBy", .string, "how it matched"),
    ]

    /// `results JOB`, `watch JOB`: a finished job's results (an import's, an enrichment's or a scan's).
    package static let jobResults = ResultShape([
        Field("jobId", .string, "the job's ID"),
        Field("pipeline", .string, "csv_import, batch_enrichment or bookshelf_scan"),
        Field("booksCreated", .number, "books the server created"),
        Field("booksUpdated", .number, "books the server updated"),
        Field("duplicatesSkipped", .number, "duplicate rows skipped"),
        Field("enrichmentSucceeded", .number, "books enriched"),
        Field("enrichmentFailed", .number, "books not enriched"),
        Field("errorCount", .number, "how many rows failed"),
        Field("errors", .list(.object), "the rows that failed"),
        Field("books", .list(.object), "the books imported"),
        Field("matches", .list(.record(importMatch)), "rows matched by title, not by ISBN", optional: true),
        Field("library", .record(saveSummary), "what saving the books did to your library", optional: true),
    ]).union([
        Field("jobId", .string, "the job's ID"),
        Field("pipeline", .string, "csv_import, batch_enrichment or bookshelf_scan"),
        Field("totalCount", .number, "how many books were asked for"),
        Field("succeeded", .number, "how many were enriched"),
        Field("failed", .number, "how many were not"),
        Field("results", .list(.record(batchItem)), "each book's outcome"),
        Field("errors", .list(.record(batchItem)), "the books that failed"),
    ]).union([
        Field("jobId", .string, "the job's ID"),
        Field("pipeline", .string, "csv_import, batch_enrichment or bookshelf_scan"),
        Field("found", .number, "how many books the scan found"),
        Field("approved", .number, "how many it is sure of"),
        Field("needsReview", .number, "how many to check"),
        Field("books", .list(.record(scannedBook)), "the books found"),
    ])

    // MARK: The library

    /// A book of the library.
    package static let libraryBook: ResultShape = [
        Field("id", .number, "its library ID"),
        Field("isbn", .string, "its ISBN-13", optional: true),
        Field("isbn10", .string, "its ISBN-10", optional: true),
        Field("asin", .string, "its ASIN", optional: true),
        Field("title", .string, "its title"),
        Field("authors", .list(.string), "its authors"),
        Field("series", .string, "its series", optional: true),
        Field("year", .number, "the year it was first published", optional: true),
        Field("publisher", .string, "the publisher", optional: true),
        Field("pageCount", .number, "how many pages it has", optional: true),
        Field("format", .string, "its format", optional: true),
        Field("language", .string, "its language", optional: true),
        Field("coverUrl", .string, "the cover image's URL", optional: true),
        Field("description", .string, "its description", optional: true),
        Field("shelf", .string, "its shelf"),
        Field("tags", .list(.string), "its tags"),
        Field("rating", .number, "your rating (0–5)", optional: true),
        Field("stars", .string, "the rating as stars", optional: true),
        Field("dateRead", .string, "when you read it", optional: true),
        Field("dateAdded", .string, "when it was added", optional: true),
        Field("readCount", .number, "how many times you read it", optional: true),
        Field("review", .string, "your review", optional: true),
        Field("notes", .string, "your private notes", optional: true),
        Field("sources", .list(.string), "where its data came from"),
        Field("editions", .number, "how many editions of the work the library holds", optional: true),
    ]

    /// `library list`, `library search`.
    static let libraryBooks: ResultShape = [
        Field("count", .number, "how many books are listed"),
        Field("total", .number, "how many books match"),
        Field("books", .list(.record(libraryBook)), "the books"),
    ]

    static let libraryStats: ResultShape = [
        Field("books", .number, "books in the library"),
        Field("works", .number, "works (editions of one counted once)"),
        Field("authors", .number, "authors"),
        Field(
            "readPerYear",
            .list(.record([Field("year", .string, "the year"), Field("count", .number, "books read")])),
            "books read each year"
        ),
        Field("readUndated", .number, "books read without a date"),
        Field(
            "perShelf",
            .list(.record([Field("shelf", .string, "the shelf"), Field("count", .number, "its books")])),
            "books on each shelf"
        ),
        Field(
            "ratings",
            .list(.record([Field("stars", .number, "the stars"), Field("count", .number, "books rated so")])),
            "books per rating"
        ),
        Field("unrated", .number, "books without a rating"),
        Field("pagesRead", .number, "pages of the books read"),
    ]

    // MARK: Meta

    static let limits: ResultShape = [
        Field(
            "budgets",
            .list(
                .record([
                    Field("class", .string, "the rate-limit class"),
                    Field("remaining", .number, "calls left"),
                    Field("limit", .number, "calls allowed per window"),
                    Field("resetsInSeconds", .number, "seconds until the window resets", optional: true),
                    Field("source", .string, "where the figures come from"),
                    Field("blocked", .bool, "whether the class is blocked until the reset"),
                ])
            ),
            "each rate-limit budget"
        )
    ]

    static let capabilities: ResultShape = [
        Field("server", .string, "the server's URL, secrets masked"),
        Field("version", .string, "the server's version"),
        Field("api", .string, "the API dialect in use"),
        Field("apiSource", .string, "how the dialect was found"),
        Field("dialect", .string, "the dialect the server published"),
        Field("source", .string, "where the capabilities come from (server, cache)"),
        Field(
            "features",
            .list(
                .record([
                    Field("name", .string, "the feature"), Field("enabled", .bool, "whether it is on"),
                    Field("gates", .list(.string), "the commands it gates"),
                ])
            ),
            "the server's features"
        ),
        Field(
            "limits",
            .list(.record([Field("name", .string, "the limit"), Field("value", .number, "its value")])),
            "the server's limits"
        ),
    ]

    static let connection: ResultShape = [
        Field("server", .string, "the server's URL, secrets masked"),
        Field("target", .string, "what was connected to (a profile, a URL, embedded)"),
        Field("version", .string, "the server's version", optional: true),
        Field("capabilities", .bool, "whether it published its capabilities"),
        Field("api", .string, "the API dialect in use"),
    ]

    static let cancellation: ResultShape = [
        Field("jobId", .string, "the job's ID"),
        Field("status", .string, "its status after the cancel"),
        Field("message", .string, "the server's message", optional: true),
    ]

    static let cacheSummary: ResultShape = [
        Field("backend", .string, "the backend whose answers are cached"),
        Field("cached", .bool, "whether its answers are cached"),
        Field("file", .string, "the cache's file", optional: true),
        Field("entries", .number, "stored answers", optional: true),
        Field("fresh", .number, "answers still fresh", optional: true),
        Field("bytes", .number, "bytes of stored answers", optional: true),
        Field("fileBytes", .number, "bytes of the file", optional: true),
        Field("maxBytes", .number, "the most the cache holds", optional: true),
    ]

    static let cacheEntries: ResultShape = [
        Field("backend", .string, "the backend whose answers are cached"),
        Field(
            "entries",
            .list(
                .record([
                    Field("key", .string, "the request"), Field("status", .number, "the answer's status"),
                    Field("ageSeconds", .number, "seconds since it was stored"),
                    Field("expiresInSeconds", .number, "seconds until it is stale (negative: stale)"),
                    Field("fresh", .bool, "whether it is fresh"),
                    Field("etag", .string, "its ETag", optional: true),
                ])
            ),
            "the stored answers, newest first"
        ),
    ]

    // MARK: Variables every command shares

    /// `$_http`: the last HTTP exchange (its fields stated once in ``VariableScope/Exchange/Field``).
    package static let exchange = ResultShape(
        VariableScope.Exchange.Field.allCases.map { field in
            let kind: Kind
            switch field {
            case .status, .durationMs: kind = .number
            case .cache, .method, .url: kind = .string
            case .headers: kind = .object
            }
            return Field(field.rawValue, kind, field.summary)
        }
    )

    /// `$_` after a command failed.
    package static let failure: ResultShape = [
        Field(
            "error",
            .record([
                Field("code", .string, "the error's code (USAGE, NOT_FOUND, …)"),
                Field("message", .string, "the error message"),
                Field("status", .number, "the exit status"),
            ]),
            "what went wrong"
        ),
        Field("body", .any, "the server's answer, when there was one", optional: true),
    ]
}
