import BooksTrackClient
import BooksTrackContract

/// Which search a result answers: its value's `kind`.
enum SearchKind: String, Sendable, Hashable {
    case isbn, title, author, advanced, semantic

    /// What `more` continues of it: title and author searches only.
    var continued: SearchPage.Kind? {
        switch self {
        case .title: return .title
        case .author: return .author
        case .isbn, .advanced, .semantic: return nil
        }
    }
}

extension SearchResults {
    /// The results shown: at most `limit` (`--limit`), whatever the server sent (production
    /// ignores the limit; a hostile server sent 1,000 rows to `--limit 5`).
    func shown(limit: Int?) -> ArraySlice<SearchResultItem> {
        limit.map { items.prefix(max(0, $0)) } ?? items[...]
    }

    /// How many results the search has in all: the server's count, else those up to this page.
    func total(offset: Int) -> Int {
        totalResults ?? (offset + items.count)
    }
}

/// Contract DTOs → command outputs: the shell's result values (`$_`) and their table views.
extension CommandOutput {
    static let bookColumns: [TableColumn] = [
        TableColumn("isbn", "ISBN"),
        .bookTitle,
        TableColumn("authors", "AUTHORS", flexible: true),
        .number("year", "YEAR"),
        .number("pageCount", "PAGES"),
    ]

    static let scoredColumns: [TableColumn] = [
        TableColumn("isbn", "ISBN"),
        .bookTitle,
        TableColumn("authors", "AUTHORS", flexible: true),
        .number("year", "YEAR"),
        .number("score", "SCORE", decimals: 3),
    ]

    static func book(_ item: SearchResultItem) -> JSONValue {
        .record([
            ("isbn", item.isbn.json), ("title", item.title.json), ("authors", item.authors.json),
            ("year", item.year.json), ("publisher", item.publisher.json), ("publishedDate", item.publishedDate.json),
            ("pageCount", item.pageCount.json), ("language", item.language.json),
            ("format", item.format.map { JSONValue.string($0.rawValue) }), ("coverUrl", item.coverURL.json),
            ("score", item.score.json), ("categories", item.categories.isEmpty ? nil : item.categories.json),
        ])
    }

    /// `{query, kind, totalCount, count, results}` (and `offset`, and `correctedQuery` when the server
    /// searched a corrected query instead). `offersMore`: the footer says what `more` shows
    /// (only where the user can type it next).
    /// `limit`: at most this many rows (`--limit`), whatever the server sent (production ignores
    /// the limit; a hostile server sent 1,000 rows to `--limit 5`).
    static func search(
        _ results: SearchResults,
        query: String,
        kind: SearchKind,
        offset: Int = 0,
        offersMore: Bool = false,
        limit: Int? = nil
    ) -> CommandOutput {
        let items = results.shown(limit: limit)
        let rows = items.map(book)
        let total = results.total(offset: offset)
        var pairs: [(String, JSONValue?)] = [
            ("query", query.json), ("kind", kind.rawValue.json), ("totalCount", total.json), ("count", rows.count.json),
            ("results", .array(rows)),
        ]
        if offset > 0 { pairs.append(("offset", offset.json)) }
        if let corrected = results.correctedQuery { pairs.append(("correctedQuery", corrected.json)) }
        let value = JSONValue.record(pairs)
        let scored = items.contains { $0.score != nil }
        var footer =
            offset > 0 && !rows.isEmpty
            ? "(\(offset + 1)–\(offset + rows.count) of \(total) result\(total == 1 ? "" : "s")"
            : "(\(rows.count) of \(total) result\(total == 1 ? "" : "s")"
        if offersMore, kind.continued != nil, offset + rows.count < total, !rows.isEmpty {
            footer += "; 'more' shows the next \(min(rows.count, total - offset - rows.count))"
        }
        footer += ")"
        return CommandOutput(
            value: value,
            view: .table(
                columns: scored ? scoredColumns : bookColumns,
                rowsKey: "results",
                footer: footer,
                empty: kind == .isbn ? "Book not found. Try a different search." : "No matches."
            )
        )
    }

    /// `sourceTitle`: the title the source was found by (`similar TITLE…`), shown and kept in the value.
    static let similarColumns: [TableColumn] = [
        TableColumn("isbn", "ISBN"), .bookTitle, TableColumn("authors", "AUTHORS", flexible: true),
        .number("score", "SCORE", decimals: 3),
    ]

    static func similar(_ results: SimilarResults, source: String, sourceTitle: String? = nil) -> CommandOutput {
        let rows = results.items.map { item in
            JSONValue.record([
                ("isbn", item.isbn.json), ("title", item.title.json), ("authors", item.authors.json),
                ("score", .number(item.score)), ("coverUrl", item.coverURL.json),
            ])
        }
        var fields: [(String, JSONValue)] = [("sourceIsbn", (results.sourceISBN ?? source).json)]
        if let sourceTitle { fields.append(("sourceTitle", sourceTitle.json)) }
        fields += [("totalCount", results.total.json), ("count", rows.count.json), ("results", .array(rows))]
        let named = sourceTitle.map { "\($0), \(source)" } ?? source
        return CommandOutput(
            value: .record(fields),
            view: .table(
                columns: similarColumns,
                rowsKey: "results",
                footer: "(\(rows.count) similar to \(named))",
                empty: "No similar books."
            )
        )
    }

    static func enriched(_ book: EnrichedBook) -> CommandOutput {
        let value = JSONValue.encoding(book)
        let fields = [
            "isbn", "title", "authors", "publisher", "publishedDate", "pageCount", "categories", "provider",
            "enrichedAt", "vectorized", "description",
        ].map { RecordField($0) }
        return CommandOutput(value: value, view: .record(fields: fields))
    }

    static let recommendationColumns: [TableColumn] = [
        TableColumn("isbn", "ISBN"), .bookTitle, TableColumn("authors", "AUTHORS", flexible: true),
        TableColumn("reason", "REASON", prefersWhole: true),
    ]

    static func recommendations(_ weekly: WeeklyRecommendations) -> CommandOutput {
        let rows = weekly.items.map { item in
            JSONValue.record([
                ("isbn", item.isbn.json), ("title", item.title.json), ("authors", item.authors.json),
                ("reason", item.reason.json), ("score", item.score.json),
            ])
        }
        let value = JSONValue.record([
            ("weekOf", weekly.weekOf.json), ("count", rows.count.json), ("results", .array(rows)),
            ("generatedAt", weekly.generatedAt.json), ("nextRefresh", weekly.nextRefresh.json),
            ("message", weekly.message.json),
        ])
        return CommandOutput(
            value: value,
            view: .table(
                columns: recommendationColumns,
                rowsKey: "results",
                footer: "(week of \(weekly.weekOf))",
                empty: weekly.message ?? "No recommendations yet."
            )
        )
    }

    /// The weekly picks' footer says what they are on the embedded backend: the same for
    /// everyone, not drawn from the library, and where the library's own recommendations are.
    func notingWeeklyPicks() -> CommandOutput {
        guard case .table(let columns, let key, let footer?, let empty) = view else { return self }
        var output = self
        output.view = .table(
            columns: columns,
            rowsKey: key,
            footer: String(footer.dropLast()) + ": this week's picks for everyone, not from your library; "
                + "'recommend --library' recommends for it)",
            empty: empty
        )
        return output
    }

    static func jobStatus(_ status: BooksTrackContract.JobStatus) -> CommandOutput {
        let value = JSONValue.record([
            ("jobId", status.jobId.json), ("status", status.status.rawValue.json),
            ("progress", .number(status.progress)),
            ("processedCount", status.processedCount.json), ("totalCount", status.totalCount.json),
            ("pipeline", status.pipeline.rawValue.json), ("startTime", .number(Double(status.startTime))),
            ("completedTime", status.completedTime.map { .number(Double($0)) }),
            ("error", status.error.map { JSONValue.encoding($0) }),
            // The error as a sentence (the table shows it; `error` keeps the server's fields).
            ("reason", status.error.map { "\($0.message) (\($0.code.rawValue))".json }),
        ])
        let fields = ["jobId", "status", "progress", "processedCount", "totalCount", "pipeline", "reason"].map { key in
            RecordField(key, format: key == "progress" ? .percent : key == "jobId" ? .jobID : .text)
        }
        return CommandOutput(value: value, view: .record(fields: fields))
    }

    /// The tables of a job's results: an import's errors, a batch's books, a scan's books.
    static let importErrorColumns: [TableColumn] = [
        .number("row", "ROW"), .number("line", "LINE"), TableColumn("isbn", "ISBN"),
        TableColumn("error", "ERROR", flexible: true),
    ]
    static let batchColumns: [TableColumn] = [
        TableColumn("isbn", "ISBN"), .bookTitle, TableColumn("success", "OK"),
        TableColumn("error", "ERROR", flexible: true),
    ]
    static let scanColumns: [TableColumn] = [
        .bookTitle, TableColumn("author", "AUTHOR", flexible: true), TableColumn("isbn", "ISBN"),
        .number("confidence", "CONF", decimals: 2), TableColumn("review", "REVIEW"),
    ]

    /// The summary of a job's results plus its error rows. `recordLines`: where each record of the
    /// imported file starts (``CSVPreflight/recordLines(_:)``), when the file is at hand: each error
    /// then names its file line too (the server's `row` counts data rows: row 9 is line 10, or
    /// later when a field holds a line break).
    static func jobResults(_ results: JobResults, jobID: String, recordLines: [Int]? = nil) -> CommandOutput {
        switch results {
        case .csvImport(let summary):
            let errors = summary.errors.map { error -> JSONValue in
                let value = JSONValue.encoding(error)
                guard let recordLines, error.row > 0, error.row < recordLines.count else { return value }
                return value.adding("line", recordLines[error.row].json)
            }
            let books = summary.books.map { JSONValue.encoding($0) }
            let value = JSONValue.record([
                ("jobId", jobID.json), ("pipeline", Pipeline.csvImport.rawValue.json),
                ("booksCreated", summary.booksCreated.json), ("booksUpdated", summary.booksUpdated.json),
                ("duplicatesSkipped", summary.duplicatesSkipped.json),
                ("enrichmentSucceeded", summary.enrichmentSucceeded.json),
                ("enrichmentFailed", summary.enrichmentFailed.json),
                ("errorCount", errors.count.json), ("errors", .array(errors)), ("books", .array(books)),
            ])
            // The server's counts, said to be the server's: the library's own line (saved from every
            // row of the file, matched or not) can differ, and "booksCreated 8" above "library: 9
            // created" read as a contradiction.
            let fields =
                [RecordField("jobId")]
                + [
                    "booksCreated", "booksUpdated", "duplicatesSkipped", "enrichmentSucceeded",
                    "enrichmentFailed",
                ].map { RecordField($0, "\($0) (server)") }
                + [RecordField("errorCount")]
            var views: [ResultView] = [.record(fields: fields)]
            if !errors.isEmpty {
                views.append(.table(columns: importErrorColumns, rowsKey: "errors", footer: nil, empty: nil))
            }
            var output = CommandOutput(value: value, view: .sections(views))
            output.addImportMatches(summary.matches)
            return output
        case .batch(let items):
            let rows = items.map { item in
                JSONValue.record([
                    ("isbn", item.isbn.json), ("title", (item.enriched?.work.title ?? item.title).json),
                    ("success", .bool(item.success)), ("error", item.error.json),
                ])
            }
            let failed = items.filter { !$0.success }.count
            let value = JSONValue.record([
                ("jobId", jobID.json), ("pipeline", Pipeline.batchEnrichment.rawValue.json),
                ("totalCount", items.count.json),
                ("succeeded", (items.count - failed).json), ("failed", failed.json), ("results", .array(rows)),
                ("errors", .array(rows.filter { $0["success"] == .bool(false) })),
            ])
            let fields = ["jobId", "totalCount", "succeeded", "failed"].map { RecordField($0) }
            var views: [ResultView] = [.record(fields: fields)]
            views.append(.table(columns: batchColumns, rowsKey: "results", footer: nil, empty: nil))
            return CommandOutput(value: value, view: .sections(views))
        case .scan(let books):
            return scanResults(books, jobID: jobID)
        }
    }

    /// The books a scan found: title, author, ISBN, confidence and a review mark (below 0.8).
    static func scanResults(_ books: [DetectedBook], jobID: String) -> CommandOutput {
        let rows = books.map { book in
            JSONValue.record([
                ("title", book.title.json), ("author", book.author.json), ("isbn", book.isbn.json),
                ("confidence", .number((book.confidence * 100).rounded() / 100)),
                ("review", book.isApproved ? "".json : "review".json), ("approved", .bool(book.isApproved)),
                ("enrichmentStatus", book.enrichmentStatus.json),
                ("photo", book.photoIndex.map { ($0 + 1).json } ?? .null),
                ("boundingBox", book.boundingBox.map { JSONValue.encoding($0) } ?? .null),
            ])
        }
        let approved = books.filter(\.isApproved).count
        let value = JSONValue.record([
            ("jobId", jobID.json), ("pipeline", Pipeline.bookshelfScan.rawValue.json), ("found", books.count.json),
            ("approved", approved.json), ("needsReview", (books.count - approved).json), ("books", .array(rows)),
        ])
        let table = ResultView.table(
            columns: scanColumns,
            rowsKey: "books",
            footer: nil,
            empty: "No ISBN barcode was found in the photos."
        )
        return CommandOutput(value: value, view: table)
    }
}
