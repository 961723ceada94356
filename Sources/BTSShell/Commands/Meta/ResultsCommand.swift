import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `results JOB`.
struct ResultsCommand: JobCommand {
    static let configuration = CommandSpec(
        "results", group: .meta,
        summary: "Show a finished job's results",
        positionals: [CommandSpec.jobArgument],
        examples: ["results last"])

    static let budget: RateLimitClass? = .jobs

    var job: String?

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let (id, record) = try context.findJob(job)
        let pipeline = record?.pipeline ?? .csvImport
        let response = try await context.call { api in
            try await api.jobResults(id, pipeline: pipeline)
        }
        context.jobs.collected.insert(id)
        return try await .savedJobResults(response.value, jobID: id, record: record, in: context)
    }
}
