import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `results JOB`.
struct ResultsCommand: JobCommand {
    static let result: CommandResult = .shape(.jobResults)

    static let configuration = CommandSpec(
        "results",
        group: .meta,
        summary: "Show a finished job's results",
        positionals: [CommandSpec.jobArgument],
        options: [
            CommandSpec.columnsOption(
                CommandOutput.importErrorColumns + CommandOutput.batchColumns
                    + CommandOutput.scanColumns
            )
        ],
        examples: ["results last"]
    )

    static let budget: RateLimitClass? = .jobs

    var job: String?

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let (id, record) = try context.findJob(job)
        let pipeline = record?.pipeline ?? .csvImport
        let response: APIResponse<JobResults>
        do {
            response = try await context.call { api in
                try await api.jobResults(id, pipeline: pipeline)
            }
        } catch let error as BooksTrackError where error.category == .notFound || error.category == .usage {
            // "No results": say why when the job's status tells (canceled, failed, still running).
            throw await Self.whyNoResults(id, record: record, in: context) ?? error
        }
        context.jobs.collected.insert(id)
        return try await .savedJobResults(response.value, jobID: id, record: record, in: context)
    }

    /// Why a job has no results, from its status (one more request, on this error path only); nil
    /// when the status says nothing more (a completed job whose results expired, an unknown job).
    static func whyNoResults(
        _ id: String,
        record: SessionJob?,
        in context: isolated any CommandContext
    ) async -> ShellError? {
        let shown = SessionJob.displayID(id)
        guard
            let status = try? await context.call(
                as: context.callPolicy.spending(.jobs).gated(nil),
                { api in
                    try await api.jobStatus(id, pipeline: record?.pipeline)
                }
            ).value
        else { return nil }
        context.jobs.update(
            id,
            status: .state(status.status),
            processed: status.processedCount,
            total: status.totalCount
        )
        switch status.status {
        case .canceled:
            return ShellError(.failure, "job \(shown) was canceled: it has no results", code: .jobCanceled)
        case .failed:
            let reason = status.error.map { ": \($0.message) (\($0.code.rawValue))" } ?? ""
            return ShellError(.failure, "job \(shown) failed\(reason): it has no results", code: .jobFailed)
        case .initialized, .processing:
            let done = status.totalCount > 0 ? " (\(status.processedCount) of \(status.totalCount))" : ""
            return ShellError(
                .failure,
                "job \(shown) is still \(status.status.rawValue)\(done): 'watch \(shown)' follows it to its results",
                code: "JOB_NOT_FINISHED"
            )
        default:
            return nil
        }
    }
}
