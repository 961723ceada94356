import BooksTrackClient
import BooksTrackContract
import BooksTrackLibrary

/// The library answering for the server: lookups of books already in the library when the
/// backend is unreachable, and "already in your library" marks on results.
enum LibraryLookups {
    /// Whether `error` means the backend could not be reached at all (not a refusal or a 404).
    static func isUnreachable(_ error: any Error) -> Bool {
        if let error = error as? BooksTrackError { return error.category == .network }
        if let error = error as? ShellError { return error.status == .network }
        return false
    }

    /// Why the server did not answer, as the library's note says it: a timeout as a timeout.
    static func unreachable(_ context: isolated any CommandContext) -> String {
        context.serverTimedOut
            ? "the server did not answer in time (the request timed out)" : "the server is unreachable"
    }

    /// What a search asks the library when the server is unreachable.
    enum Query: Sendable {
        case isbn(String)
        case text(String)
        case author(String)
        case advanced(title: String?, author: String?)

        /// The `kind` of the answer, as the server's answer to the same search has it.
        var kind: SearchKind {
            switch self {
            case .isbn: return .isbn
            case .text: return .title
            case .author: return .author
            case .advanced: return .advanced
            }
        }

        /// The `query` of the answer.
        var text: String {
            switch self {
            case .isbn(let text), .text(let text), .author(let text): return text
            case .advanced(let title, let author):
                return [title, author.map { "by \($0)" }].compactMap { $0 }.joined(separator: " ")
            }
        }
    }

    /// A search answered from the library, shaped like the server's (`{query, kind, totalCount,
    /// count, results, answeredBy}`), with one line on stderr saying so; nil when the library has
    /// nothing for it (the caller then reports the network error).
    static func search(_ query: Query, limit: Int, in context: isolated any CommandContext) async -> CommandOutput? {
        guard context.settings.answersOffline, let library = try? context.library() else { return nil }
        var books: [LibraryBook] = []
        switch query {
        case .isbn(let isbn):
            if case .one(let book)? = try? await library.find(isbn) { books = [book] }
        case .text(let words):
            books = (try? await library.search(words, limit: limit)) ?? []
        case .author(let name):
            books =
                (try? await library.list(LibraryFilter(author: name), sort: LibrarySort(.title), limit: limit)) ?? []
        case .advanced(let title, let author):
            var filter = LibraryFilter(author: author)
            filter.text = title
            books = (try? await library.list(filter, sort: .relevance, limit: limit)) ?? []
        }
        guard !books.isEmpty else { return nil }
        context.output.warn(
            "\(unreachable(context)): answered from your library (\(books.count) book\(books.count == 1 ? "" : "s"))"
        )
        let rows = books.map { book -> JSONValue in
            let d = book.data
            return .record([
                ("isbn", d.isbn13.json), ("title", d.title.json), ("authors", d.authors.json),
                ("year", (d.originalYear ?? d.publishedYear).json), ("publisher", d.publisher.json),
                ("pageCount", d.pageCount.json), ("coverUrl", d.coverURL.json), ("inLibrary", .bool(true)),
                ("shelf", book.reading.shelf.rawValue.json),
            ])
        }
        let value = JSONValue.record([
            ("query", query.text.json), ("kind", query.kind.rawValue.json), ("totalCount", rows.count.json),
            ("count", rows.count.json),
            ("results", .array(rows)), ("answeredBy", "library".json),
        ])
        return CommandOutput(
            value: value,
            view: .table(
                columns: CommandOutput.bookColumns,
                rowsKey: "results",
                footer: "(\(rows.count) from your library; \(unreachable(context)))",
                empty: nil
            )
        )
    }
}

extension CommandOutput {
    /// Marks each row of `rowsKey` with `inLibrary` (true/false) and adds an IN LIBRARY column to the
    /// table (`yes` or blank; gone when no row is held). Left as it is when the library cannot be read.
    func markingHeld(rowsKey: String = "results", in context: isolated any CommandContext) async -> CommandOutput {
        guard case .object(var members) = value, case .array(let rows)? = members[rowsKey],
            let library = try? context.library()
        else { return self }
        let isbns = rows.compactMap { $0["isbn"]?.stringValue }
        guard let held = try? await library.holdings(of: isbns) else { return self }
        members[rowsKey] = .array(
            rows.map { row in
                row.adding("inLibrary", .bool(row["isbn"]?.stringValue.map(held.contains) ?? false))
            }
        )
        var output = self
        output.value = .object(members)
        if case .table(var columns, let key, let footer, let empty) = view {
            columns.append(TableColumn("inLibrary", "IN LIBRARY", format: .mark))
            output.view = .table(columns: columns, rowsKey: key, footer: footer, empty: empty)
        }
        return output
    }
}

extension LibraryLookups {
    /// The ISBN-13 of your library's best full-text match for `title` (`similar TITLE…` when the
    /// server cannot be reached), or nil (not answering offline, no match, no ISBN).
    static func isbn(titled title: String, in context: isolated any CommandContext) async -> String? {
        guard context.settings.answersOffline, let library = try? context.library() else { return nil }
        return (try? await library.search(title, limit: 5))?.lazy.compactMap(\.isbn13).first
    }

    /// `similar ISBN` when the server is unreachable and the book is in the library: the library's
    /// other books in the same series (score 1) or by the same author (score 0.5), saying so on
    /// stderr; nil when the book is not there or nothing in the library is related.
    static func similar(to isbn: String, limit: Int, in context: isolated any CommandContext) async -> CommandOutput? {
        guard context.settings.answersOffline, let library = try? context.library(),
            case .one(let source)? = try? await library.find(isbn)
        else { return nil }
        var related: [(book: LibraryBook, score: Double)] = []
        var seen: Set<Int64> = [source.id]
        if let series = source.data.series,
            let books = try? await library.list(LibraryFilter(text: series), sort: .relevance, limit: 200)
        {
            for book in books where book.data.series == series && seen.insert(book.id).inserted {
                related.append((book, 1))
            }
        }
        for author in source.authors.prefix(3) {
            let books =
                (try? await library.list(LibraryFilter(author: author), sort: LibrarySort(.title), limit: 200)) ?? []
            for book in books where seen.insert(book.id).inserted { related.append((book, 0.5)) }
        }
        guard !related.isEmpty else { return nil }
        let picked = related.prefix(limit)
        context.output.warn(
            "\(unreachable(context)): answered from your library (\(picked.count) book\(picked.count == 1 ? "" : "s") in the same series or by the same author)"
        )
        let rows = picked.map { entry in
            JSONValue.record([
                ("isbn", entry.book.isbn13.json), ("title", entry.book.title.json),
                ("authors", entry.book.authors.json), ("score", .number(entry.score)),
                ("inLibrary", .bool(true)),
            ])
        }
        let value = JSONValue.record([
            ("sourceIsbn", (source.isbn13 ?? isbn).json), ("totalCount", rows.count.json), ("count", rows.count.json),
            ("results", .array(rows)), ("answeredBy", "library".json),
        ])
        let columns = [
            TableColumn("isbn", "ISBN"), .bookTitle,
            TableColumn("authors", "AUTHORS", flexible: true), .number("score", "SCORE", decimals: 3),
        ]
        return CommandOutput(
            value: value,
            view: .table(
                columns: columns,
                rowsKey: "results",
                footer: "(\(rows.count) from your library, same series or author; \(unreachable(context)))",
                empty: nil
            )
        )
    }
}
