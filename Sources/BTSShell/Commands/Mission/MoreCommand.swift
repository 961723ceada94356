import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// A page of a title or author search, as `more` continues it.
struct SearchPage: Sendable, Hashable {
    /// Which search it continues (a result's `kind`).
    enum Kind: String, Sendable, Hashable { case title, author }

    var kind: Kind
    var query: String
    var limit: Int
    var offset: Int
    var count: Int
    var total: Int
}

/// `more`: the next page of the last title or author search (same query, same `--limit`).
struct MoreCommand: ShellCommand {
    static let result: CommandResult = .shape(.bookList)

    static let limit = OptionSpec(
        "limit",
        short: "n",
        type: .int(SearchPageLimits.limit),
        valueName: "N",
        help: "Results on this page, 1–100 (default: the last search's --limit)"
    )

    static let configuration = CommandSpec(
        "more",
        group: .mission,
        summary: "Show the next page of the last title or author search",
        discussion:
            "Fails (exit \(ExitStatus.failure.rawValue)) when the last search has no more results. The server must honour 'offset' (the embedded one does).",
        options: [limit, SearchCommand.columns],
        examples: ["search the --limit 10", "more"]
    )

    static let budget: RateLimitClass? = .search

    var limit: Int?

    init(_ resolved: ResolvedCommand) {
        limit = resolved.bound(Self.limit) != nil ? resolved.int(Self.limit) : nil
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        guard let last = context.lastSearch else {
            throw ShellError(
                .usage,
                "no search to continue: 'more' follows a title or author search (e.g. 'search the')"
            )
        }
        let next = last.offset + last.count
        guard last.count > 0, next < last.total else {
            throw ShellError(
                .failure,
                "no more results for '\(last.query)': all \(last.total) shown",
                code: .noMoreResults
            )
        }
        let request: SearchRequest
        switch last.kind {
        case .title: request = .title(last.query)
        case .author: request = .author(last.query)
        }
        return try await SearchRun(request, limit: limit ?? last.limit, skip: next).run(in: context)
    }
}

extension ErrorCode {
    /// `more` after the last page.
    static let noMoreResults: ErrorCode = "NO_MORE_RESULTS"
}
