import BTSLanguage
import BooksTrackContract
import BooksTrackLibrary
import Foundation

/// `library list` and `library search`.
extension LibraryCommand {
    static let authorFilter = OptionSpec(
        "author",
        short: "a",
        type: .string,
        valueName: "NAME",
        help: "Only books with an author whose name contains NAME"
    )
    static let ratingFilter = OptionSpec(
        "rating",
        short: "r",
        type: .string,
        valueName: "N",
        help: "Only books rated N stars; N+ for at least N; 'none' for unrated"
    )
    static let yearReadFilter = OptionSpec(
        "year-read",
        short: "y",
        type: .int(1000...9999),
        valueName: "YEAR",
        help: "Only books read in YEAR"
    )
    static let tagFilter = OptionSpec(
        "tag",
        type: .string,
        valueName: "TAG",
        help: "Only books with this tag",
        completion: .tag
    )
    static let sortKeys = LibrarySort.Key.allCases.filter { $0 != .relevance }
    static let sortOption = OptionSpec(
        "sort",
        type: .enumeration(sortKeys.map(\.rawValue)),
        valueName: "KEY",
        help:
            "Order by \(EnglishList.joined(sortKeys.map(\.rawValue))) (default \(LibrarySort.newestFirst.key.rawValue)): "
            + "\(EnglishList.joined(sortKeys.filter(\.descendsByDefault).map(\.rawValue), "and")) newest or highest first, "
            + "\(EnglishList.joined(sortKeys.filter { !$0.descendsByDefault }.map(\.rawValue), "and")) A to Z"
    )
    static let reverseOption = OptionSpec("reverse", type: .flag, help: "Reverse the order")
    static let queryWords = ArgumentSpec(
        "TEXT",
        "Words to find in titles, authors, series, notes and tags",
        variadic: true,
        completion: .title
    )

    static let filterOptions = [shelfFilter, authorFilter, ratingFilter, yearReadFilter, tagFilter]

    /// `library list`.
    struct List: LibrarySubcommand {
        static let result: CommandResult = .shape(.libraryBooks)

        static let configuration = CommandSpec(
            "list",
            group: .library,
            summary: "List your books, filtered and sorted",
            options: filterOptions + [
                sortOption, reverseOption, limit, CommandSpec.columnsOption(LibraryCommand.bookColumns),
            ],
            examples: [
                "library list", "library list --shelf read --year-read 2019 --sort rating",
                "library list --author collins --rating 4+",
            ]
        )

        static let limit = OptionSpec(
            "limit",
            short: "n",
            type: .int(1...100_000),
            help: "At most N books (default: all)"
        )

        var options: ListOptions
        var limit: Int?

        init(_ resolved: ResolvedCommand) throws(ShellError) {
            options = try ListOptions(resolved)
            limit = resolved.int(Self.limit)
        }

        func run(library: BookLibrary, in context: isolated any CommandContext) async throws -> CommandOutput? {
            try await LibraryCommand.list(options, limit: limit, library: library)
        }
    }

    /// `library search`.
    struct Search: LibrarySubcommand {
        static let result: CommandResult = .shape(.libraryBooks)

        static let configuration = CommandSpec(
            "search",
            group: .library,
            summary: "Full-text search of your library (offline), best match first",
            positionals: [queryWords],
            options: filterOptions + [limit.spec, CommandSpec.columnsOption(LibraryCommand.bookColumns)],
            examples: ["library search hunger games", "library search dystopia --shelf read"]
        )

        static let limit = IntOption("limit", short: "n", range: 1...100_000, default: 50, help: "At most N books")

        var query: String
        var options: ListOptions
        var limit: Int

        init(_ resolved: ResolvedCommand) throws(ShellError) {
            query = resolved.strings(LibraryCommand.queryWords).joined(separator: " ")
            options = try ListOptions(resolved)
            limit = resolved[Self.limit]
        }

        func run(library: BookLibrary, in context: isolated any CommandContext) async throws -> CommandOutput? {
            try await LibraryCommand.search(query, options, limit: limit, library: library)
        }
    }

    /// Filters and order of `list`/`search`.
    struct ListOptions: Sendable {
        var filter = LibraryFilter()
        var sort = LibrarySort.newestFirst
        /// `--shelf` as typed and where, checked against the library's shelves when the command runs.
        var shelf: (text: String, range: SourceRange?)?

        init(_ resolved: ResolvedCommand) throws(ShellError) {
            if let text = resolved.string(LibraryCommand.shelfFilter) {
                shelf = (text, resolved.bound(LibraryCommand.shelfFilter)?.value?.word.range)
                filter.shelf = Shelf(rawValue: text)
            }
            filter.author = resolved.string(LibraryCommand.authorFilter)
            filter.yearRead = resolved.int(LibraryCommand.yearReadFilter)
            filter.tag = resolved.string(LibraryCommand.tagFilter)
            if let text = resolved.string(LibraryCommand.ratingFilter) {
                guard let rating = Self.rating(text) else {
                    throw ShellError(
                        .usage,
                        "invalid value '\(text)' for --rating (expected 1–5, N+ such as 4+, or none)",
                        range: resolved.bound(LibraryCommand.ratingFilter)?.value?.word.range
                    )
                }
                filter.rating = rating
            }
            if let key = resolved.string(LibraryCommand.sortOption).flatMap(LibrarySort.Key.init(rawValue:)) {
                sort = LibrarySort(key)
            }
            if resolved.flag(LibraryCommand.reverseOption) { sort.descending.toggle() }
        }

        /// The filter, its `--shelf` checked: a name a typo away from a shelf is a usage error naming it.
        func checkedFilter(library: BookLibrary) async throws(ShellError) -> LibraryFilter {
            var filter = self.filter
            if let typed = shelf {
                filter.shelf = try await LibraryCommand.shelf(typed.text, range: typed.range, library: library)
            }
            return filter
        }

        /// `4` → exactly 4, `4+` → at least 4, `none`/`unrated`/`0` → unrated.
        static func rating(_ text: String) -> LibraryFilter.RatingFilter? {
            let t = text.trimmingCharacters(in: .whitespaces).lowercased()
            if t == "none" || t == "unrated" || t == "0" { return .unrated }
            if t.hasSuffix("+"), let n = Double(t.dropLast()), ReadingFields.isValidRating(n) { return .atLeast(n) }
            if let n = Double(t), ReadingFields.isValidRating(n) { return .exactly(n) }
            return nil
        }
    }

    static func list(_ options: ListOptions, limit: Int?, library: BookLibrary) async throws -> CommandOutput {
        let filter = try await options.checkedFilter(library: library)
        let total = try await library.count(filter)
        let found = try await library.list(filter, sort: options.sort, limit: limit)
        let empty =
            filter == LibraryFilter()
            ? "Your library is empty. 'save' keeps the books of a search; 'import FILE --watch' adds an export's books."
            : "No books in your library match."
        return books(found, total: total, empty: empty)
    }

    static func search(
        _ query: String,
        _ options: ListOptions,
        limit: Int,
        library: BookLibrary
    ) async throws -> CommandOutput {
        let checked = try await options.checkedFilter(library: library)
        var filter = checked
        filter.text = query
        let total = try await library.count(filter)
        let found = try await library.search(query, filter: checked, limit: limit)
        return books(found, total: total, empty: "No books in your library match '\(query)'.")
    }
}
