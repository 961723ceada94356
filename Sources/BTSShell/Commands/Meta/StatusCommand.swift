import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `status JOB`.
struct StatusCommand: JobCommand {
    static let result: CommandResult = .shape(.jobStatus)

    static let configuration = CommandSpec(
        "status",
        group: .meta,
        summary: "Show a job's current status",
        positionals: [CommandSpec.jobArgument],
        examples: ["status last", "status ${_.jobId}"]
    )

    static let budget: RateLimitClass? = .jobs

    var job: String?

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let (id, record) = try context.findJob(job)
        let response = try await context.call { api in
            try await api.jobStatus(id, pipeline: record?.pipeline)
        }
        let status = response.value
        context.jobs.update(
            id,
            status: .state(status.status),
            processed: status.processedCount,
            total: status.totalCount
        )
        return .jobStatus(status)
    }
}
