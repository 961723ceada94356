import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `enrich ISBN [--provider P]` (single) or `enrich ISBN ISBN… | --from FILE [--watch]` (batch job).
struct EnrichCommand: ShellCommand {
    static let result: CommandResult = .shape(ResultShape.enrichedBook.union(.job).union(.jobResults))

    static let isbns = ArgumentSpec("ISBN", "ISBNs to enrich", optional: true, variadic: true, completion: .isbn)
    static let provider = OptionSpec(
        "provider",
        short: "p",
        type: .enumeration(["auto", "google_books", "openlibrary", "isbndb"]),
        default: .string("auto"),
        valueName: "PROVIDER",
        help:
            "Preferred provider: auto, google_books, openlibrary or isbndb (default auto; the embedded backend has none)",
        completion: .provider
    )
    static let from = OptionSpec(
        "from",
        short: "f",
        type: .path(extensions: ["txt", "csv"]),
        valueName: "FILE",
        help: "Read the ISBNs from FILE (starts a batch job)"
    )
    static let watch = CommandSpec.watchOption

    static let configuration = CommandSpec(
        "enrich",
        group: .mission,
        summary: "Fetch full metadata for books from the providers",
        discussion: """
            One ISBN runs a single enrichment and prints the book. Several ISBNs, or --from FILE (one ISBN \
            per line; blank lines and '#' comments ignored), start a batch enrichment job (at most \
            \(JobLimits.maxBatchSize) books); --watch follows it (on the embedded backend, bts finishes the job before it exits). The embedded backend and `bts serve` contact no provider: they answer \
            from the bundled catalog (provider local-catalog: title, authors, year and cover, no description, \
            publisher or page count) and accept --provider without using it.
            """,
        positionals: [isbns],
        options: [provider, from, watch],
        examples: [
            "enrich 9780439023481",
            "enrich 9780439023481 --provider openlibrary",
            "enrich 9780439023481 9780439023498 --watch",
            "enrich --from isbns.txt --watch",
        ],
        requirements: [.anyOf(["ISBN", "--from"]), .exclusive(["ISBN", "--from"])]
    )

    /// Only the batch form is gated (a single enrichment is not).
    static let gate: CommandGate? = CommandGate(.batchEnrichment, scope: "batch")
    static let budget: RateLimitClass? = .enrich
    /// What the batch form spends.
    static let batchBudget: RateLimitClass = .batch

    var words: [BoundValue]
    var provider: EnrichProvider?
    var from: BoundValue?
    var watch: Bool

    init(_ resolved: ResolvedCommand) {
        words = resolved.values(Self.isbns)
        provider = resolved.string(Self.provider).flatMap(EnrichProvider.init(rawValue:))
        from = resolved.bound(Self.from)?.value
        watch = resolved.flag(Self.watch)
    }

    var isBatch: Bool { words.count != 1 || from != nil || watch }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        if !isBatch {
            let isbn = try ISBN.validated(words[0].text ?? "", range: words[0].word.range)
            let provider = self.provider == .auto ? nil : self.provider
            let response = try await context.call { api in
                try await api.enrich(isbn: isbn.value, provider: provider)
            }
            return await .savedEnrichment(response.value, in: context)
        }
        var isbns: [String] = []
        var source: String
        if let from, let path = from.text {
            isbns = try Self.readISBNList(context.resolvePath(path), range: from.word.range)
            source = path
        } else {
            for word in words { isbns.append(try ISBN.validated(word.text ?? "", range: word.word.range).value) }
            source = "\(isbns.count) ISBN\(isbns.count == 1 ? "" : "s")"
        }
        let jobID = UUID().uuidString.lowercased()
        let books = isbns.map { BatchBook(title: "", isbn: $0) }
        let response = try await context.call(as: context.callPolicy.spending(Self.batchBudget).gated(Self.gate)) {
            api in
            try await api.batchEnrich(books: books, jobID: jobID)
        }
        let accepted = response.value
        let record = SessionJob(
            id: accepted.jobId,
            pipeline: .batchEnrichment,
            token: accepted.authToken,
            startedAt: Date(),
            totalCount: accepted.totalCount,
            processedCount: 0,
            status: .initialized,
            source: source
        )
        context.jobs.add(record)
        if watch { return try await WatchCommand.follow(record.id, record: record, in: context) }
        context.output.note(
            "started batch enrichment job \(SessionJob.displayID(record.id)) (\(accepted.totalCount) books); 'watch' follows it"
        )
        return CommandOutput(
            value: record.json,
            view: .record(
                fields: [RecordField("jobId", format: .jobID)]
                    + ["kind", "status", "totalCount", "source"].map { RecordField($0) }
            )
        )
    }

    /// Reads `--from FILE`: one ISBN per line; blank lines and `#` comments ignored.
    static func readISBNList(_ url: URL, range: SourceRange?) throws(ShellError) -> [String] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ShellError(.usage, "cannot read '\(url.path)': no such file or not readable", range: range)
        }
        var isbns: [String] = []
        for (number, rawLine) in String(decoding: data, as: UTF8.self).split(
            separator: "\n",
            omittingEmptySubsequences: false
        ).enumerated() {
            var line = rawLine
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            do {
                isbns.append(try ISBN(parsing: text).value)
            } catch {
                throw ShellError(
                    .usage,
                    "\(url.lastPathComponent):\(number + 1): '\(text)': \(ErrorCode.invalidISBN.userMessage()): \(error.message)",
                    range: range,
                    code: .invalidISBN
                )
            }
        }
        guard !isbns.isEmpty else { throw ShellError(.usage, "'\(url.path)' holds no ISBN", range: range) }
        guard isbns.count <= JobLimits.maxBatchSize else {
            throw ShellError(
                .usage,
                "'\(url.path)' holds \(isbns.count) ISBNs; a batch takes at most \(JobLimits.maxBatchSize)",
                range: range
            )
        }
        return isbns
    }
}
