import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `jobs`: the jobs started in this session and those remembered from earlier sessions on the same
/// server, each unfinished one's state asked afresh.
struct JobsCommand: ShellCommand {
    static let result: CommandResult = .shape([ResultShape.Field("jobs", .list(.record(.job)), "the session's jobs")])

    static let configuration = CommandSpec(
        "jobs",
        group: .meta,
        summary: "List the jobs started here, and earlier on the same server, with fresh states",
        discussion: """
            Jobs that have not finished are asked for their state (at most 20, one request each). Jobs \
            are remembered across restarts per server, in $XDG_STATE_HOME/bts/jobs.json; the embedded \
            backend's jobs end with the session.
            """,
        options: [CommandSpec.columnsOption(columns(idLength: JobIDPrefix.minimumLength))],
        examples: ["jobs"]
    )

    /// The table, job ids cut to `idLength` characters.
    static func columns(idLength: Int) -> [TableColumn] {
        [
            TableColumn("jobId", "JOB", format: .abbreviatedJobID(length: idLength)), TableColumn("kind", "KIND"),
            TableColumn("status", "STATUS"), .number("processedCount", "DONE"), .number("totalCount", "TOTAL"),
            TableColumn("source", "SOURCE", flexible: true),
        ]
    }

    static let budget: RateLimitClass? = .jobs
    /// At most this many unfinished jobs are asked for their state per `jobs`.
    static let refreshLimit = 20

    init(_ resolved: ResolvedCommand) {}

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        _ = try? await context.backend()  // which server: its remembered jobs
        context.jobs.loadRemembered()
        let unfinished = context.jobs.all.filter { !$0.status.isFinal }.suffix(Self.refreshLimit)
        for job in unfinished {
            do {
                let response = try await context.call { api in
                    try await api.jobStatus(job.id)
                }
                let status = response.value
                context.jobs.update(
                    job.id,
                    status: .state(status.status),
                    processed: status.processedCount,
                    total: status.totalCount
                )
            } catch let error as BooksTrackError where error.code == .notFound {
                context.jobs.update(job.id, status: .gone)  // the server no longer has it
            } catch let error as ShellError where error.status == .interrupted {
                throw error
            } catch {
                if Task.isCancelled { throw error }
                // Unreachable or refused: the last state seen stays; `status JOB` says why.
            }
        }
        let value = JSONValue.record([("jobs", .array(context.jobs.all.map(\.json)))])
        let shown = JobIDPrefix.shownLength(of: context.jobs.all.map(\.id))
        return CommandOutput(
            value: value,
            view: .table(
                columns: Self.columns(idLength: shown),
                rowsKey: "jobs",
                footer: nil,
                empty: "No jobs started in this session."
            )
        )
    }
}
