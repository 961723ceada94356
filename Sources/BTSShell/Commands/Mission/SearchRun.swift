import BTSLanguage
import BTSTerminalText
import BooksTrackClient
import BooksTrackContract

/// What a search asks: one ISBN, title words, an author, or title and author together.
enum SearchRequest: Sendable {
    case isbn([BoundValue])
    case title(String)
    case author(String)
    case advanced(title: String?, author: String?)
}

/// One search as it runs, for every form of `search` and for `more`: the request, the page size
/// and the results skipped, and what the library is asked when the server cannot be reached.
struct SearchRun: Sendable {
    var request: SearchRequest
    var limit: Int
    /// Results to skip (`--offset`, or `--page` × `--limit`).
    var skip: Int
    /// What the library is asked when the server is unreachable.
    var offline: LibraryLookups.Query
    /// `--all`: every page of a title or author search, in one list.
    var pagesAll = false

    /// The most results `--all` collects: pages up to the last offset a server takes.
    static var allBound: Int { SearchPageLimits.deepest }

    init(_ request: SearchRequest, limit: Int, skip: Int) {
        self.request = request
        self.limit = limit
        self.skip = skip
        switch request {
        case .isbn(let words): offline = .isbn(words.compactMap(\.text).joined(separator: " "))
        case .title(let query): offline = .text(query)
        case .author(let name): offline = .author(name)
        case .advanced(let title, let author): offline = .advanced(title: title, author: author)
        }
    }

    /// The request with `--limit` and `--offset`/`--page` as resolved (the limit's default from its declaration).
    init(_ request: SearchRequest, resolved: ResolvedCommand, limit option: IntOption) {
        let limit = resolved[option]
        let page = resolved.bound(SearchCommand.page) != nil ? resolved.int(SearchCommand.page) : nil
        let offset = resolved.bound(SearchCommand.offset) != nil ? resolved.int(SearchCommand.offset) : nil
        self.init(request, limit: limit, skip: page.map { ($0 - 1) * limit } ?? offset ?? 0)
        pagesAll = resolved.flag(SearchCommand.all)
    }

    /// `search title ""`, `search $unset`: which query is blank.
    static func empty(_ what: String) -> ShellError {
        ShellError(.usage, "the \(what) to search for is empty", code: .missingParameter)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        do {
            return try await runOnline(in: context)
        } catch let error where LibraryLookups.isUnreachable(error) {
            // Books already in the library are answered from it, saying so.
            if let answer = await LibraryLookups.search(offline, limit: limit, in: context) { return answer }
            throw error
        }
    }

    /// The sentence for an ISBN the backend does not know. The offline catalog holds one edition of
    /// each book, so a reader's own copy is often another edition: it is found by title or author.
    static func unknownISBN(_ isbn: String, offline: Bool) -> String {
        offline
            ? "No book with ISBN \(isbn) in the offline catalog, which holds one edition of each book: "
                + "find another edition by its title (search title WORDS) or author (search author NAME)."
            : "No book with ISBN \(isbn) in the catalog."
    }

    func runOnline(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let (limit, skip) = (self.limit, self.skip)
        switch request {
        case .isbn(let words):
            let text = words.compactMap(\.text).joined(separator: " ")
            let isbn = try ISBN.validated(text, range: BoundValue.range(of: words))
            let response = try await context.call { api in try await api.searchISBN(isbn.value) }
            // The one rule for "nothing found" (README, Exit codes): a command naming one book fails
            // with exit 1 when the server does not know it, as `similar` and `enrich` do; searches
            // that match nothing succeed with an empty list.
            guard !response.value.items.isEmpty else {
                throw ShellError(
                    .failure,
                    Self.unknownISBN(isbn.value, offline: context.connection?.target == .embedded),
                    range: BoundValue.range(of: words),
                    code: .notFound
                )
            }
            return .search(response.value, query: isbn.value, kind: .isbn)
        case .title(let query) where pagesAll:
            return try await everyPage(.title, query, in: context) { api, limit, offset in
                try await api.searchTitle(query, limit: limit, offset: offset)
            }
        case .author(let name) where pagesAll:
            return try await everyPage(.author, name, in: context) { api, limit, offset in
                try await api.searchAuthor(name, limit: limit, offset: offset)
            }
        case .title(let query):
            let response = try await context.call { api in try await api.searchTitle(query, limit: limit, offset: skip)
            }
            Self.noteCorrection(response.value, in: context)
            remember(.title, query: query, response.value, in: context)
            return .search(
                response.value,
                query: query,
                kind: .title,
                offset: skip,
                offersMore: context.atPrompt,
                limit: limit
            )
        case .author(let name):
            let response = try await context.call { api in try await api.searchAuthor(name, limit: limit, offset: skip)
            }
            Self.noteCorrection(response.value, in: context)
            remember(.author, query: name, response.value, in: context)
            return .search(
                response.value,
                query: name,
                kind: .author,
                offset: skip,
                offersMore: context.atPrompt,
                limit: limit
            )
        case .advanced(let title, let author):
            let response = try await context.call { api in
                try await api.searchAdvanced(title: title, author: author, limit: limit)
            }
            let query = [title, author.map { "by \($0)" }].compactMap { $0 }.joined(separator: " ")
            return .search(response.value, query: query, kind: .advanced, limit: limit)
        }
    }

    /// `--all`: pages of the largest size until the server's total is reached, a page comes back
    /// short, or the last offset a server takes (``allBound``, said on stderr when it cuts the list);
    /// each page is one call under the command's budget, its page number on the spinner.
    private func everyPage(
        _ kind: SearchKind,
        _ query: String,
        in context: isolated any CommandContext,
        _ fetch: @escaping @Sendable (BooksTrackAPI, Int, Int) async throws -> APIResponse<SearchResults>
    ) async throws -> CommandOutput {
        let size = SearchPageLimits.limit.upperBound
        var items: [SearchResultItem] = []
        var first: SearchResults?
        var page = 1
        while true {
            try Task.checkCancellation()
            var policy = context.callPolicy
            let total = first?.totalResults
            policy.label += " (page \(page)\(total.map { " of \(max(1, ($0 + size - 1) / size))" } ?? ""))"
            let offset = items.count
            let response = try await context.call(as: policy) { api in try await fetch(api, size, offset) }
            let found = response.value.shown(limit: size)
            if first == nil {
                first = response.value
                Self.noteCorrection(response.value, in: context)
            }
            items += found
            let reported = first?.totalResults ?? 0
            if found.count < size || items.count >= reported { break }
            if items.count + size > Self.allBound {
                context.output.warn(
                    "stopped at \(items.count) of \(reported) results: servers page no further than offset "
                        + "\(SearchPageLimits.offset.upperBound)"
                )
                break
            }
            page += 1
        }
        // `more` has nothing left to show of this search.
        context.lastSearch = nil
        let results = SearchResults(
            items: items,
            totalResults: first?.totalResults ?? items.count,
            correctedQuery: first?.correctedQuery
        )
        return .search(results, query: query, kind: kind)
    }

    /// The longest corrected query shown (the client sends at most 200 characters of a query).
    static let shownCorrectionLength = 200

    /// "showing results for 'tolkien'" on stderr when the server says it searched a corrected
    /// query instead (`SearchResults.correctedQuery`); the server's text is sanitised. Only the
    /// server's word: an empty answer without one gets no guess.
    static func noteCorrection(_ results: SearchResults, in context: isolated any CommandContext) {
        guard let corrected = results.correctedQuery else { return }
        context.output.note(correctionLine(corrected))
    }

    /// The line that says what was searched instead.
    static func correctionLine(_ corrected: String) -> String {
        "showing results for '\(TerminalText.sanitize(String(corrected.prefix(shownCorrectionLength)), lines: .flatten))'"
    }

    /// Keeps a title or author search for `more`: the page as it is shown.
    private func remember(
        _ kind: SearchPage.Kind,
        query: String,
        _ results: SearchResults,
        in context: isolated any CommandContext
    ) {
        context.lastSearch = SearchPage(
            kind: kind,
            query: query,
            limit: limit,
            offset: skip,
            count: results.shown(limit: limit).count,
            total: results.total(offset: skip)
        )
    }
}
