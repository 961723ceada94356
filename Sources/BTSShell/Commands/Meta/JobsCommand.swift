import BTSLanguage
import BooksTrackContract

/// `jobs`: this session's jobs.
struct JobsCommand: ShellCommand {
    static let configuration = CommandSpec(
        "jobs", group: .meta,
        summary: "List the jobs started in this session",
        examples: ["jobs"])

    init(_ resolved: ResolvedCommand) {}

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let value = JSONValue.record([("jobs", .array(context.jobs.all.map(\.json)))])
        let columns = [TableColumn("jobId", "JOB"), TableColumn("kind", "KIND"), TableColumn("status", "STATUS"),
                       .number("processedCount", "DONE"), .number("totalCount", "TOTAL"),
                       TableColumn("source", "SOURCE", flexible: true)]
        return CommandOutput(value: value, view: .table(columns: columns, rowsKey: "jobs", footer: nil,
                                                         empty: "No jobs started in this session."))
    }
}
