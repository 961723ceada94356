import BTSLanguage
import BTSTerminal
import BooksTrackContract
import BooksTrackLibrary
import Foundation

/// `library list|search|show|set|remove|shelves|stats|export|import`: the user's own library,
/// a SQLite file at `$XDG_DATA_HOME/bts/library.sqlite`. Every subcommand works offline: none
/// opens a backend. Each subcommand is a type (``LibrarySubcommand``) in `LibraryCommand+<Concern>.swift`.
struct LibraryCommand: CommandFamily {
    static let result: CommandResult = .ofSubcommand

    static let configuration = CommandSpec(
        "library",
        group: .library,
        summary: "Your library: the books you saved or imported, kept offline",
        discussion: """
            The library is one file, $XDG_DATA_HOME/bts/library.sqlite (else ~/.local/share/bts/library.sqlite), \
            safe to use from several bts sessions at once. Books are kept by ISBN-13 (or title and author \
            when they have none), each with your shelf, rating, dates, notes and tags. 'save' adds the books of \
            the last result; 'import FILE --watch' adds an import's books. No library command needs a server.
            """,
        examples: ["library list --shelf read --sort rating", "library show 9780439023481", "library stats"]
    )

    static let subcommands: [any ShellCommand.Type] = [
        List.self, Search.self, Show.self, Update.self, Remove.self, Shelves.self, Stats.self, Export.self, Import.self,
    ]

    // MARK: Shared arguments

    static let bookWords = ArgumentSpec(
        "BOOK",
        "An ISBN, a library ID (the number 'library list' shows; a number no book has as its ID is read as title words) or title words",
        variadic: true,
        completion: .title
    )
    static let shelfFilter = OptionSpec(
        "shelf",
        short: "s",
        type: .string,
        valueName: "SHELF",
        help: "Only books on this shelf (to-read, currently-reading, read, or your own)",
        completion: .shelf
    )

    /// The shelf a book is put on (`save --shelf`, `library set --shelf`): any name makes a shelf,
    /// but a name that is not a shelf yet and is a typo away from one (`reed`) is a usage error
    /// naming the nearest shelf.
    static func shelf(_ text: String, range: SourceRange?, library: BookLibrary) async throws(ShellError) -> Shelf {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ShellError(.usage, "--shelf needs a shelf name", range: range)
        }
        let shelf = Shelf(rawValue: text)
        let known: [String]
        do { known = try await library.shelves().map(\.shelf.rawValue) } catch { throw ShellError(error) }
        guard !known.contains(shelf.rawValue), let near = Suggest.closest(to: shelf.rawValue, among: known) else {
            return shelf
        }
        throw ShellError(
            .usage,
            "there is no shelf '\(shelf.rawValue)' yet; did you mean '\(near)'?",
            range: range,
            code: "UNKNOWN_SHELF"
        )
    }

    /// The one book `words` name: an ISBN, `#id` or title words; several matches are an error
    /// listing them (exit 1), none is 'not found' (exit 1).
    static func book(_ words: [BoundValue], library: BookLibrary) async throws -> LibraryBook {
        let reference = words.compactMap(\.text).joined(separator: " ")
        let range = BoundValue.range(of: words)
        guard !reference.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ShellError(.usage, "name a book: an ISBN, a library ID or title words", range: range)
        }
        // A short number is a library id when one has it ('#' starts a comment in the shell's
        // language), else title words: 'library show 1984' finds Orwell's novel.
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        let isID = trimmed.count <= 9 && trimmed.allSatisfy { $0.isASCII && $0.isNumber }
        var match = isID ? try await library.find("#" + trimmed) : .none
        if case .none = match { match = try await library.find(reference) }
        switch match {
        case .one(let book): return book
        case .none:
            throw ShellError(
                .failure,
                "no book in your library matches '\(reference)' ('library search' finds words anywhere)",
                range: range,
                code: .notFound
            )
        case .ambiguous(let books):
            throw ShellError(
                .failure,
                "'\(reference)' matches \(books.count == 10 ? "10 or more" : String(books.count)) books; name one by ISBN or library ID",
                range: range,
                details: books.map(Self.handleLine),
                code: .ambiguous
            )
        }
    }

    /// `id 12  9780439023481  The Hunger Games — Suzanne Collins`.
    static func handleLine(_ book: LibraryBook) -> String {
        let by = book.authors.first.map { " — \($0)" } ?? ""
        return "id \(book.id)  \(book.isbn13 ?? "-")  \(book.title)\(by)"
    }

    static let bookColumns: [TableColumn] = [
        // Narrow terminals lose ISBN, then READ, before the title is cut (the ID names the book).
        .number("id", "ID"), TableColumn("isbn", "ISBN").optional(1), .bookTitle,
        TableColumn("authors", "AUTHORS", flexible: true), TableColumn("shelf", "SHELF"),
        TableColumn("stars", "RATING"),
        TableColumn("dateRead", "READ").optional(2),
    ]

    /// `{count, books}` shown as a table.
    static func books(_ books: [LibraryBook], total: Int, empty: String) -> CommandOutput {
        let value = JSONValue.record([
            ("count", books.count.json), ("total", total.json),
            ("books", .array(books.map(\.json))),
        ])
        let footer =
            books.count == total
            ? "(\(total) book\(total == 1 ? "" : "s"))" : "(\(books.count) of \(total) books)"
        return CommandOutput(
            value: value,
            view: .table(
                columns: bookColumns,
                rowsKey: "books",
                footer: books.isEmpty ? nil : footer,
                empty: empty
            )
        )
    }
}

/// A subcommand of `library`: it runs against the opened library, and a library failure is
/// reported as a ``ShellError``.
protocol LibrarySubcommand: ShellCommand {
    /// Whether it changes the library (completion then reloads its shelves, ISBNs and titles).
    static var changesLibrary: Bool { get }
    func run(library: BookLibrary, in context: isolated any CommandContext) async throws -> CommandOutput?
}

extension LibrarySubcommand {
    static var changesLibrary: Bool { false }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let library = try context.library()
        defer { if Self.changesLibrary { context.libraryChanged() } }
        do {
            return try await run(library: library, in: context)
        } catch let error as LibraryError {
            throw ShellError(error)
        }
    }
}

extension ErrorCode {
    /// A book reference that matches several books.
    static let ambiguous: ErrorCode = "AMBIGUOUS"
}
