import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `import FILE.csv [--watch]`: checked locally first (exists, readable, ≤ `JobLimits.maxCSVBytes`, a header with
/// at least 2 columns and a data row), then uploaded.
struct ImportCommand: ShellCommand {
    static let result: CommandResult = .shape(ResultShape.job.union(.jobResults))

    static let file = ArgumentSpec(
        "FILE",
        "The CSV file",
        type: .path(extensions: ["csv"]),
        completion: .filePath(extensions: ["csv"])
    )
    static let watch = CommandSpec.watchOption

    static let configuration = CommandSpec(
        "import",
        group: .mission,
        summary: "Import a CSV file (e.g. a Goodreads export) as a background job",
        discussion: """
            The file must have a header row and 1–\(JobLimits.maxCSVRowsText) rows, at most \(JobLimits.maxCSVSize). \
            --watch follows the job. On the embedded backend the job runs in this bts process: bts \
            finishes it before it exits, puts its books into your library and prints its summary on stderr.
            """,
        positionals: [file],
        options: [watch],
        examples: ["import goodreads_library_export.csv --watch"]
    )

    static let gate: CommandGate? = CommandGate(.csvImport)
    static let budget: RateLimitClass? = .import

    var file: BoundValue?
    var watch: Bool

    init(_ resolved: ResolvedCommand) {
        file = resolved.values(Self.file).first
        watch = resolved.flag(Self.watch)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let path = file?.text ?? ""
        let url = context.resolvePath(path)
        try CSVPreflight.check(url, shownAs: path, range: file?.word.range, columns: true)
        let response = try await context.call { api in
            try await api.importCSV(fileAt: url)
        }
        let accepted = response.value
        let record = SessionJob(
            id: accepted.jobId,
            pipeline: .csvImport,
            token: accepted.authToken,
            startedAt: Date(),
            status: .initialized,
            source: url.lastPathComponent,
            file: url.path
        )
        context.jobs.add(record)
        if watch { return try await WatchCommand.follow(record.id, record: record, in: context) }
        context.output.note("started import job \(SessionJob.displayID(record.id)); 'watch' follows it")
        return CommandOutput(
            value: record.json,
            view: .record(
                fields: [RecordField("jobId", format: .jobID)] + ["kind", "status", "source"].map { RecordField($0) }
            )
        )
    }
}
