import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import BooksTrackLibrary
import Foundation

/// `scan PHOTO… [--watch] [--save] [--shelf NAME]`: a bookshelf scan job — photos in, books out.
struct ScanCommand: ShellCommand {
    static let result: CommandResult = .shape(ResultShape.job.union(.jobResults))

    static let extensions = ["jpg", "jpeg", "png", "webp"]
    static let photos = ArgumentSpec(
        "PHOTO",
        "1–5 photos (JPEG, PNG or WebP; at most 10 MB each, 50 MB together)",
        type: .path(extensions: extensions),
        variadic: true,
        completion: .filePath(extensions: extensions)
    )
    static let watch = CommandSpec.watchOption
    static let save = OptionSpec(
        "save",
        short: "s",
        type: .flag,
        help: "Follow the job, then add the approved books (confidence ≥ 0.8) to your library"
    )
    static let shelf = OptionSpec(
        "shelf",
        type: .string,
        valueName: "SHELF",
        help: "The shelf --save puts new books on (default to-read)",
        completion: .shelf
    )

    static let configuration = CommandSpec(
        "scan",
        group: .mission,
        summary: "Find the books in photos of a shelf or of their back covers (a scan job)",
        discussion: """
            Uploads 1–5 photos as a bookshelf scan job; --watch follows it (the embedded backend's always) and lists the books found: \
            title, author, ISBN, the confidence, and a review mark below 0.8. --save also adds the \
            approved books to your library (merged by ISBN) on --shelf (default to-read), and lists the \
            ones that need review with the command that saves one. Each photo is checked first (JPEG, PNG \
            or WebP by its content, at most 10 MB, 50 MB together): nothing is sent when one is refused. \
            The embedded backend and 'bts serve' read the ISBN barcodes (EAN-13, 978/979) on the photos — \
            upright, sideways or turned, several per photo; production's scan (API v3) also reads spines without barcodes \
            with an AI model, which the local backend does not.
            """,
        positionals: [photos],
        options: [watch, save, shelf],
        examples: ["scan back-covers.jpg --watch", "scan back-covers.jpg --save --shelf owned"],
        requirements: [.anyOf(["PHOTO"])]
    )

    static let gate: CommandGate? = CommandGate(.bookshelfScan)
    static let budget: RateLimitClass? = .scan

    var photos: [BoundValue]
    var watch: Bool
    var save: Bool
    var shelf: String?
    var shelfRange: SourceRange?

    init(_ resolved: ResolvedCommand) {
        photos = resolved.values(Self.photos)
        watch = resolved.flag(Self.watch)
        save = resolved.flag(Self.save)
        shelf = resolved.string(Self.shelf)
        shelfRange = resolved.bound(Self.shelf)?.value?.word.range
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let urls = photos.map { context.resolvePath($0.text ?? "") }
        let range = photos.first?.word.range
        // Every photo is checked before the backend is even opened: a refusal sends nothing.
        do throws(BooksTrackError) {
            _ = try BooksTrackAPI.checkedPhotos(urls)
        } catch {
            throw ShellError(.usage, error.message, range: range, code: error.code)
        }
        // The shelf is checked as `library set --shelf` checks it, before anything is sent.
        var checkedShelf: Shelf?
        if let shelf {
            guard save else {
                throw ShellError(.usage, "--shelf says where --save puts the books: add --save", range: shelfRange)
            }
            checkedShelf = try await LibraryCommand.shelf(shelf, range: shelfRange, library: context.library())
        }
        // The embedded backend runs the scan in this process, in about the time an answer takes: followed.
        let followsAnyway = try await context.backend().server != nil
        let response = try await context.call { api in
            try await api.scan(photos: urls)
        }
        let accepted = response.value
        let source = urls.count == 1 ? urls[0].lastPathComponent : "\(urls.count) photos"
        let record = SessionJob(
            id: accepted.jobId,
            pipeline: .bookshelfScan,
            token: accepted.authToken,
            startedAt: Date(),
            totalCount: urls.count,
            status: .initialized,
            source: source
        )
        context.jobs.add(record)
        guard watch || save || followsAnyway else {
            context.output.note(
                "started scan job \(SessionJob.displayID(record.id)) (\(urls.count) photo\(urls.count == 1 ? "" : "s")); 'watch' follows it"
            )
            return CommandOutput(
                value: record.json,
                view: .record(
                    fields: [RecordField("jobId", format: .jobID)]
                        + ["kind", "status", "source"].map { RecordField($0) }
                )
            )
        }
        let followed = try await WatchCommand.follow(record.id, record: record, in: context)
        guard save else { return followed }
        let results = try await context.call(as: context.callPolicy.spending(.jobs).gated(nil)) { api in
            try await api.jobResults(record.id, pipeline: .bookshelfScan)
        }
        guard case .scan(let books) = results.value else { return followed }
        return try await Self.saved(books, jobID: record.id, shelf: checkedShelf?.rawValue, in: context)
    }

    /// Adds the approved books to the library and lists those needing review with the command that
    /// saves one.
    static func saved(
        _ books: [DetectedBook],
        jobID: String,
        shelf: String?,
        in context: isolated any CommandContext
    ) async throws -> CommandOutput {
        var output = CommandOutput.scanResults(books, jobID: jobID)
        // An approved barcode of a book the backend does not know has an ISBN and nothing else: it is
        // listed with the command that looks it up, not saved as a book without a title.
        let known = books.filter { $0.isApproved && !($0.title ?? "").isEmpty }
        let unknown = books.filter { $0.isApproved && ($0.title ?? "").isEmpty && $0.isbn != nil }
        let approved = known.compactMap(BookData.init)
        let review = books.filter { !$0.isApproved }
        let library = try context.library()
        let summary: SaveSummary
        do {
            summary = try await library.save(
                approved,
                from: .scan(jobID),
                shelf: shelf.map { Shelf(rawValue: $0) } ?? .toRead
            )
        } catch {
            throw ShellError(error)
        }
        context.libraryChanged()
        output.value = output.value.adding("library", summary.json)
        var lines = [
            "Saved \(approved.count) approved book\(approved.count == 1 ? "" : "s") (\(summary.created) new, "
                + "\(summary.updated) updated, \(summary.alreadyThere) already there)."
        ]
        // Only a book the backend knew (it gave the title) is offered `search isbn`: the same backend
        // answers that search. Another ISBN is found by title, if it is another edition of a book.
        let save = "save" + (shelf.map { " --shelf \($0)" } ?? "")
        let byTitle =
            "if it is another edition of a catalog book,\n  find that one by title: search title WORDS; \(save)"
        for book in unknown {
            lines.append("Not known here: \(book.isbn ?? "") — \(byTitle)")
        }
        for book in review {
            let what = [book.title, book.isbn].compactMap { $0 }.joined(separator: ", ")
            let confidence = String(format: "%.2f", book.confidence)
            switch (book.isbn, (book.title ?? "").isEmpty) {
            case (let isbn?, false):
                lines.append("Needs review (\(confidence)): \(what) — save it with: search isbn \(isbn); \(save)")
            case (.some, true): lines.append("Needs review (\(confidence)): \(what) — \(byTitle)")
            case (nil, _): lines.append("Needs review (\(confidence)): \(what)")
            }
        }
        output.view = .sections([output.view, .text(lines.joined(separator: "\n"))])
        return output
    }
}
