/// The contract's job timings (docs/contract.md §5/§6): the one home of the SSE heartbeat and stream
/// timeout, the `retry:` hint, the job token's lifetime and refresh window and the results' TTLs.
/// The server's defaults, `bts serve --help`, and the client's silence limit and token refresh read
/// them from here.
package enum JobTimings {
    /// An SSE stream sends `: heartbeat` after this long without anything else to write.
    package static let heartbeat: Duration = .seconds(30)
    /// An SSE stream ends with `event: timeout` after this long without a job event.
    package static let streamTimeout: Duration = .seconds(300)
    /// The `retry:` an SSE stream suggests, in milliseconds.
    package static let sseRetryMilliseconds = 5000
    /// A job token's lifetime.
    package static let tokenLifetime: Duration = .seconds(7200)
    /// A token may be refreshed only during this last part of its life.
    package static let tokenRefreshWindow: Duration = .seconds(1800)
    /// How long an import's results (and the job) are kept after it ends.
    package static let importResultsTTL: Duration = .seconds(3600)
    /// How long a batch's (and a scan's) results are kept after it ends.
    package static let batchResultsTTL: Duration = .seconds(7200)

    /// How long a client lets an open stream stay silent (not even a heartbeat) before it gives up
    /// on it: two and a half heartbeats, so one late heartbeat is not a lost connection.
    package static var clientSilenceLimit: Duration { heartbeat * 5 / 2 }

    /// Whole seconds of `duration` (for help texts: `30`).
    package static func seconds(_ duration: Duration) -> Int64 { duration.components.seconds }
}
