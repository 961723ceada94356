import BTSLanguage
import BooksTrackContract
import BooksTrackLibrary
import Foundation

/// `library show`, `library set`, `library remove`.
extension LibraryCommand {
    /// `library show`.
    struct Show: LibrarySubcommand {
        static let result: CommandResult = .shape(.libraryBook)

        static let configuration = CommandSpec(
            "show",
            group: .library,
            summary: "Show one book of your library",
            positionals: [bookWords],
            examples: ["library show 9780439023481", "library show 3", "library show hunger games"]
        )

        var words: [BoundValue]

        init(_ resolved: ResolvedCommand) {
            words = resolved.values(LibraryCommand.bookWords)
        }

        func run(library: BookLibrary, in context: isolated any CommandContext) async throws -> CommandOutput? {
            try await LibraryCommand.show(words, library: library)
        }
    }

    static let setShelf = OptionSpec(
        "shelf",
        short: "s",
        type: .string,
        valueName: "SHELF",
        help: "Move the book to SHELF (to-read, currently-reading, read, or your own)",
        completion: .shelf
    )
    static let setRating = OptionSpec(
        "rating",
        short: "r",
        type: .string,
        valueName: "N",
        help: "Rate it 1–5 stars (halves and quarters allowed); 'none' clears it"
    )
    static let setRead = OptionSpec(
        "read",
        type: .string,
        valueName: "DATE",
        help:
            "Date read: YYYY-MM-DD, YYYY/MM/DD, 'today', or 'none' (a date on a to-read or currently-reading book moves it to read and counts one read)"
    )
    static let setAdded = OptionSpec(
        "added",
        type: .string,
        valueName: "DATE",
        help: "Date added: YYYY-MM-DD or 'today'"
    )
    static let setNotes = OptionSpec(
        "notes",
        type: .string,
        valueName: "TEXT",
        help: "Your private notes ('' clears them)"
    )
    static let setReview = OptionSpec("review", type: .string, valueName: "TEXT", help: "Your review ('' clears it)")
    static let setTag = OptionSpec(
        "tag",
        short: "t",
        type: .string,
        valueName: "TAG",
        help: "Add a tag (several: separate with commas)",
        completion: .tag
    )
    static let setUntag = OptionSpec(
        "untag",
        type: .string,
        valueName: "TAG",
        help: "Remove a tag (several: separate with commas)",
        completion: .tag
    )
    static let setReadCount = OptionSpec("read-count", type: .int(0...10_000), valueName: "N", help: "Times read")

    /// `library set`.
    struct Update: LibrarySubcommand {
        static let result: CommandResult = .shape(.libraryBook)

        static let configuration = CommandSpec(
            "set",
            group: .library,
            summary: "Change your shelf, rating, dates, notes or tags of one book",
            positionals: [bookWords],
            options: [setShelf, setRating, setRead, setAdded, setNotes, setReview, setTag, setUntag, setReadCount],
            examples: [
                "library set 9780439023481 --shelf read --rating 5 --read 2024-03-02",
                "library set 9780439023481 --tag dystopia,favourites --notes \"Reread before the film\"",
            ],
            requirements: [
                .anyOf([
                    "--shelf", "--rating", "--read", "--added", "--notes", "--review", "--tag", "--untag",
                    "--read-count",
                ])
            ]
        )

        static let changesLibrary = true

        var words: [BoundValue]
        var change: Change

        init(_ resolved: ResolvedCommand) throws(ShellError) {
            words = resolved.values(LibraryCommand.bookWords)
            change = try Change(resolved)
        }

        func run(library: BookLibrary, in context: isolated any CommandContext) async throws -> CommandOutput? {
            try await LibraryCommand.set(words, change, library: library)
        }
    }

    /// `library remove`.
    struct Remove: LibrarySubcommand {
        static let result: CommandResult = .shape([
            ResultShape.Field("removed", .record(.libraryBook), "the book removed")
        ])

        static let configuration = CommandSpec(
            "remove",
            group: .library,
            summary: "Remove one book from your library",
            positionals: [bookWords],
            examples: ["library remove 9780439023481"]
        )

        static let changesLibrary = true

        var words: [BoundValue]

        init(_ resolved: ResolvedCommand) {
            words = resolved.values(LibraryCommand.bookWords)
        }

        func run(library: BookLibrary, in context: isolated any CommandContext) async throws -> CommandOutput? {
            try await LibraryCommand.remove(words, library: library)
        }
    }

    /// What `library set` changes.
    struct Change: Sendable {
        var change = ReadingChange()
        /// `--shelf` as typed and where, checked against the library's shelves when the command runs.
        var shelf: (text: String, range: SourceRange?)?

        init(_ resolved: ResolvedCommand) throws(ShellError) {
            func range(_ option: OptionSpec) -> SourceRange? { resolved.bound(option)?.value?.word.range }
            if let shelf = resolved.string(LibraryCommand.setShelf) {
                guard !shelf.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw ShellError(.usage, "--shelf needs a shelf name", range: range(LibraryCommand.setShelf))
                }
                self.shelf = (shelf, range(LibraryCommand.setShelf))
                change.shelf = Shelf(rawValue: shelf)
            }
            if let text = resolved.string(LibraryCommand.setRating) {
                let t = text.trimmingCharacters(in: .whitespaces).lowercased()
                if t == "none" || t == "0" {
                    change.rating = .clear
                } else if let r = Double(t), ReadingFields.isValidRating(r) {
                    change.rating = .set(r)
                } else {
                    throw ShellError(
                        .usage,
                        "invalid value '\(text)' for --rating (expected 1–5 stars, e.g. 4 or 4.5, or none)",
                        range: range(LibraryCommand.setRating)
                    )
                }
            }
            if let text = resolved.string(LibraryCommand.setRead) {
                if ["none", ""].contains(text.lowercased()) {
                    change.dateRead = .clear
                } else {
                    change.dateRead = .set(try Self.date(text, "--read", range(LibraryCommand.setRead)))
                }
            }
            if let text = resolved.string(LibraryCommand.setAdded) {
                change.dateAdded = try Self.date(text, "--added", range(LibraryCommand.setAdded))
            }
            if let text = resolved.string(LibraryCommand.setNotes) {
                change.privateNotes = text.isEmpty ? .clear : .set(text)
            }
            if let text = resolved.string(LibraryCommand.setReview) {
                change.review = text.isEmpty ? .clear : .set(text)
            }
            change.addTags = Self.tags(resolved.string(LibraryCommand.setTag))
            change.removeTags = Self.tags(resolved.string(LibraryCommand.setUntag))
            if let n = resolved.int(LibraryCommand.setReadCount) { change.readCount = .set(n) }
        }

        static func tags(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        static func date(_ text: String, _ option: String, _ range: SourceRange?) throws(ShellError) -> BookDate {
            if text.lowercased() == "today" { return BookDate.today() }
            guard let date = BookDate(parsing: text) else {
                throw ShellError(
                    .usage,
                    "invalid date '\(text)' for \(option) (expected YYYY-MM-DD or YYYY/MM/DD, or today)",
                    range: range
                )
            }
            return date
        }
    }

    static let bookFields: [RecordField] = [
        RecordField("id"), RecordField("isbn"), RecordField("title"), RecordField("authors"), RecordField("series"),
        RecordField("year"), RecordField("publisher"), RecordField("pageCount", "pages"), RecordField("shelf"),
        RecordField("tags"), RecordField("stars", "rating"), RecordField("dateRead", "read"),
        RecordField("dateAdded", "added"), RecordField("readCount", "read count"), RecordField("review"),
        RecordField("notes"), RecordField("sources"),
    ]

    static func show(_ words: [BoundValue], library: BookLibrary) async throws -> CommandOutput {
        let found = try await book(words, library: library)
        return CommandOutput(value: found.json, view: .record(fields: bookFields))
    }

    static func set(_ words: [BoundValue], _ change: Change, library: BookLibrary) async throws -> CommandOutput {
        var change = change
        if let typed = change.shelf {
            change.change.shelf = try await shelf(typed.text, range: typed.range, library: library)
        }
        let found = try await book(words, library: library)
        let updated = try await library.update(id: found.id, change.change)
        return CommandOutput(value: updated.json, view: .record(fields: bookFields))
    }

    static func remove(_ words: [BoundValue], library: BookLibrary) async throws -> CommandOutput {
        let found = try await book(words, library: library)
        guard try await library.remove(id: found.id) else {
            throw ShellError(.failure, "\(handleLine(found)) was already removed", code: .notFound)
        }
        let value = JSONValue.record([("removed", found.json)])
        return CommandOutput(value: value, view: .text("Removed \(handleLine(found))."))
    }
}
