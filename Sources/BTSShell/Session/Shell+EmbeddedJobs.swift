import BTSLanguage
import BTSTerminal
import BTSTerminalText
import BooksTrackContract
import Foundation

/// On the embedded backend a job runs inside this process: it would end with the process, and an
/// import's books would never reach the library. So before bts exits (a one-shot, a script's end,
/// `\q`), the shell finishes every job it started whose results it has not taken in: it says so on
/// stderr, follows the job as `watch` does (a progress bar on a terminal), takes in what `watch`
/// takes in (an import's and an enrichment's books go to the library) and prints the job's summary
/// on stderr, stdout keeping only the commands' own results. Ctrl-C stops waiting; the job then
/// ends with the process. A remote server keeps its jobs: they are remembered for a later process.
extension Shell {
    /// Finishes the embedded backend's jobs of this session (see above). Returns `status`, or
    /// the status of the first job that did not end well when `status` is 0.
    package func finishEmbeddedJobs(after status: Int32) async -> Int32 {
        guard let connection, connection.server != nil else { return status }
        var result = status
        for job in services.jobs.uncollected {
            // One line at 80 columns with a 36-character id.
            note("finishing \(job.pipeline.commandName) job \(SessionJob.displayID(job.id)) (it runs inside bts)…")
            do {
                let finished = try await WatchCommand.follow(job.id, record: job, detaches: false, in: self)
                output.showOnStandardError(finished, sink: sink)
            } catch {
                let failure = ShellError.from(error, range: SourceRange(offset: 0, length: 0))
                if failure.status == .interrupted {
                    note(
                        "stopped waiting: \(job.pipeline.commandName) job \(SessionJob.displayID(job.id)) ends with bts"
                    )
                    return ExitStatus.interrupted.rawValue
                }
                report(failure, in: nil, interactive: true)
                if result == 0 { result = failure.status.rawValue }
            }
        }
        return result
    }
}
