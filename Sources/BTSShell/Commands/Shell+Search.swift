import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

extension Shell {
    /// Validates an ISBN locally; a bad one is a usage error pointing at the word (no request).
    func validatedISBN(_ text: String, range: SourceRange?) throws(ShellError) -> ISBN {
        do {
            return try ISBN(parsing: text)
        } catch {
            throw ShellError(.usage, "\(ErrorCode.invalidISBN.userMessage()): \(error.message)", range: range,
                             code: ErrorCode.invalidISBN.rawValue)
        }
    }

    func range(of values: [BoundValue]) -> SourceRange? {
        guard let first = values.first, let last = values.last else { return nil }
        return first.word.range.union(last.word.range)
    }

    /// `search QUERY` · `search isbn|title|author …` · `search --title T --author A`.
    func runSearch(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let limit = command.int("limit")
        let sub = command.path.count > 1 ? command.path[1] : nil
        switch sub {
        case "isbn":
            return try await searchISBN(command.values("ISBN"))
        case "title":
            let query = command.strings("QUERY").joined(separator: " ")
            return try await searchTitle(query, limit: limit)
        case "author":
            let name = command.strings("NAME").joined(separator: " ")
            let response = try await call(budget: .search, command: "search author") { api in
                try await api.searchAuthor(name, limit: limit)
            }
            return ResultViews.search(response.value, query: name, kind: "author")
        default:
            let title = command.optionString("title")
            let author = command.optionString("author")
            let words = command.values("QUERY")
            if !words.isEmpty {
                let query = command.strings("QUERY").joined(separator: " ")
                if author == nil, ISBN.looksLikeISBN(query) { return try await searchISBN(words) }
                if let author {
                    return try await searchAdvanced(title: query, author: author, limit: limit)
                }
                return try await searchTitle(query, limit: limit)
            }
            if let title, author == nil { return try await searchTitle(title, limit: limit) }
            if let author, title == nil {
                let response = try await call(budget: .search, command: "search") { api in
                    try await api.searchAuthor(author, limit: limit)
                }
                return ResultViews.search(response.value, query: author, kind: "author")
            }
            return try await searchAdvanced(title: title, author: author, limit: limit)
        }
    }

    func searchISBN(_ words: [BoundValue]) async throws -> CommandOutput {
        let text = words.compactMap(\.text).joined(separator: " ")
        let isbn = try validatedISBN(text, range: range(of: words))
        let response = try await call(budget: .search, command: "search isbn") { api in
            try await api.searchISBN(isbn.value)
        }
        return ResultViews.search(response.value, query: isbn.value, kind: "isbn")
    }

    func searchTitle(_ query: String, limit: Int?) async throws -> CommandOutput {
        let response = try await call(budget: .search, command: "search title") { api in
            try await api.searchTitle(query, limit: limit)
        }
        return ResultViews.search(response.value, query: query, kind: "title")
    }

    func searchAdvanced(title: String?, author: String?, limit: Int?) async throws -> CommandOutput {
        let response = try await call(budget: .search, command: "search") { api in
            try await api.searchAdvanced(title: title, author: author, limit: limit)
        }
        let query = [title, author.map { "by \($0)" }].compactMap { $0 }.joined(separator: " ")
        return ResultViews.search(response.value, query: query, kind: "advanced")
    }

    /// `similar ISBN [--limit N]` (gated: similar_books).
    func runSimilar(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let words = command.values("ISBN")
        let isbn = try validatedISBN(command.string("ISBN") ?? "", range: range(of: words))
        let limit = command.int("limit")
        let response = try await call(budget: .similar, gate: "similar", command: "similar") { api in
            try await api.similar(isbn: isbn.value, limit: limit)
        }
        return ResultViews.similar(response.value, source: isbn.value)
    }

    /// `semantic QUERY... [--limit N]` (gated: semantic_search); shows the budget afterwards.
    func runSemantic(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let query = command.strings("QUERY").joined(separator: " ")
        let limit = command.int("limit")
        let response = try await call(budget: .semantic, gate: "semantic", command: "semantic") { api in
            try await api.semantic(query, limit: limit)
        }
        let api = try await backend().api
        let budget = await api.budget(for: .semantic)
        if let limit = budget.limit {
            var text = "semantic budget: \(budget.remaining.map(String.init) ?? "?")/\(limit) left"
            if let reset = budget.resetAt {
                text += ", resets in \(max(0, Int(reset.timeIntervalSinceNow.rounded(.up)))) s"
            }
            note(ANSIStyle.dim.apply(text, enabled: colored(.standardError)))
        }
        return ResultViews.search(response.value, query: query, kind: "semantic")
    }

    /// `recommend [--limit N]` (gated: weekly_recommendations).
    func runRecommend(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let limit = command.int("limit")
        let response = try await call(budget: nil, gate: "recommend", command: "recommend") { api in
            try await api.weeklyRecommendations(limit: limit)
        }
        return ResultViews.recommendations(response.value)
    }
}
