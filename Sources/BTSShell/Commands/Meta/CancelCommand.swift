import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `cancel JOB`: uses the token kept when the job was started.
struct CancelCommand: JobCommand {
    static let result: CommandResult = .shape(.cancellation)

    static let configuration = CommandSpec(
        "cancel",
        group: .meta,
        summary: "Cancel a running job",
        positionals: [CommandSpec.jobArgument],
        examples: ["cancel last"]
    )

    static let gate: CommandGate? = CommandGate(.jobCancellation)
    static let budget: RateLimitClass? = .jobs

    var job: String?

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let (id, record) = try context.findJob(job)
        // v3 cancels by job id alone (bendv3 src/api-v3/jobs/imports.ts: DELETE has no auth).
        let v3 = try await context.backend().api.dialect == .v3
        guard record != nil || v3 else {
            throw ShellError(
                .failure,
                "cannot cancel job \(SessionJob.displayID(id)): the job is unknown (no job with that id was started or remembered for this backend; 'jobs' lists them)",
                code: .notFound
            )
        }
        guard let token = record?.token ?? (v3 ? "" : nil) else {
            throw ShellError(
                .failure,
                "cannot cancel job \(SessionJob.displayID(id)): its token is known only to the session that started it",
                code: .unauthorized
            )
        }
        let response = try await context.call { api in
            try await api.cancelJob(id, token: token, pipeline: record?.pipeline)
        }
        let cancel = response.value
        context.jobs.update(id, status: .state(cancel.status))
        let value = JSONValue.record([
            ("jobId", cancel.jobId.json), ("status", cancel.status.rawValue.json),
            ("message", cancel.message.json),
        ])
        return CommandOutput(
            value: value,
            view: .record(fields: ["jobId", "status", "message"].map { RecordField($0) })
        )
    }
}
