import BooksTrackClient
import BooksTrackContract
import BooksTrackLibrary

/// `similar --library [--shelf S]`: books like the ones in your library, that you do not have.
extension SimilarCommand {
    /// At most this many of the library's books are asked about (each is one `similar` request).
    static let librarySeeds = 10
    /// What its calls' spinner and budget note say.
    static let libraryLabel = "similar --library"

    /// The table of books like the library's.
    static let libraryColumns: [TableColumn] = [
        TableColumn("isbn", "ISBN"), .bookTitle, TableColumn("authors", "AUTHORS", flexible: true),
        .number("score", "SCORE", decimals: 3).optional(1), TableColumn("because", "LIKE", flexible: true),
    ]

    static func fromLibrary(
        shelf: String?,
        limit: Int,
        in context: isolated any CommandContext
    ) async throws -> CommandOutput {
        let library = try context.library()
        var filter = LibraryFilter()
        if let shelf { filter.shelf = try await LibraryCommand.shelf(shelf, range: nil, library: library) }
        let where_ = filter.shelf.map { "\($0.rawValue) shelf" } ?? "library"
        let candidates: [LibraryBook]
        do {
            // Your favourites first: the highest rated, then the most recently added.
            candidates = try await library.list(filter, sort: LibrarySort(.rating), limit: 500)
        } catch {
            throw ShellError(error)
        }
        let seeds = Array(candidates.filter { $0.isbn13 != nil }.prefix(librarySeeds))
        guard !seeds.isEmpty else {
            throw ShellError(
                .failure,
                "your \(where_) has no books with an ISBN to start from ('save' or 'import' adds some)",
                code: .notFound
            )
        }
        try await BudgetAdmission.announce(seeds.count, of: budget, command: libraryLabel, in: context)
        var scores: [String: (item: SimilarResults.Item, score: Double, because: String)] = [:]
        var asked = 0
        for seed in seeds {
            guard let isbn = seed.isbn13 else { continue }
            let response: APIResponse<SimilarResults>
            do {
                response = try await context.call(as: context.callPolicy.labelled(Self.libraryLabel)) { api in
                    try await api.similar(isbn: isbn, limit: 20)
                }
            } catch let error as BooksTrackError where error.code == .notFound {
                continue  // no vector for this one
            }
            asked += 1
            for item in response.value.items {
                let key = ISBN(item.isbn)?.isbn13 ?? item.isbn
                if var known = scores[key] {
                    known.score += item.score
                    scores[key] = known
                } else {
                    scores[key] = (item, item.score, seed.title)
                }
            }
        }
        let held = (try? await library.holdings(of: Array(scores.keys))) ?? []
        let ranked = scores.filter { !held.contains($0.key) }.values
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.item.isbn < $1.item.isbn }
            .prefix(limit)
        // On `similar`'s scale (0–1): the mean of its similarity to each book asked about (a book
        // not among one's answers counts 0 there), so the order is that of the sums.
        let rows = ranked.map { entry in
            JSONValue.record([
                ("isbn", entry.item.isbn.json), ("title", entry.item.title.json),
                ("authors", entry.item.authors.json), ("score", .number(entry.score / Double(max(1, asked)))),
                ("because", entry.because.json), ("coverUrl", entry.item.coverURL.json),
            ])
        }
        let value = JSONValue.record([
            ("source", where_.json), ("seeds", seeds.compactMap(\.isbn13).json), ("seedsAnswered", asked.json),
            ("count", rows.count.json), ("results", .array(rows)),
        ])
        return CommandOutput(
            value: value,
            view: .table(
                columns: libraryColumns,
                rowsKey: "results",
                footer: "(\(rows.count) not in your library, like \(asked) books of your \(where_))",
                empty: "No similar books that you do not already have."
            )
        )
    }
}
