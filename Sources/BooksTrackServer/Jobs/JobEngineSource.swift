import BooksTrackContract
import Hummingbird
import Synchronization

/// Where the job routes get their engine: one opened already, or one opened by the first job
/// request (the embedded backend: a one-shot `search` never opens `jobs.sqlite` nor recovers
/// stored jobs, which would slow its start). A failed open is an `INTERNAL_ERROR` answer and is tried
/// again by the next job request.
package final class JobEngineSource: Sendable {
    /// The engine's configuration (known without opening it).
    package let configuration: JobEngineConfiguration
    private let open: @Sendable () throws -> JobEngine
    private let opened: Mutex<JobEngine?>

    /// An engine that is open already.
    package init(_ engine: JobEngine) {
        configuration = engine.configuration
        open = { engine }
        opened = Mutex(engine)
    }

    /// An engine opened by `open` when a job route first needs it.
    package init(configuration: JobEngineConfiguration, opening open: @escaping @Sendable () throws -> JobEngine) {
        self.configuration = configuration
        self.open = open
        opened = Mutex(nil)
    }

    /// The engine, opened now if it was not yet (concurrent first requests open it once).
    package func engine() throws(APIError) -> JobEngine {
        do {
            return try opened.withLock { engine in
                if let engine { return engine }
                let new = try open()
                engine = new
                return new
            }
        } catch {
            throw APIError(.internalError, Self.openFailure)
        }
    }

    /// Why a job of `owner` would be refused now, asked before an upload is read (an engine that
    /// cannot be opened is refused later, by the route's own `engine()`).
    func refusal(owner: String) async -> JobEngine.SubmissionError? {
        guard let engine = engineIfAvailable else { return nil }
        return await engine.refusal(owner: owner)
    }

    /// The answer's message when the engine cannot be opened.
    static let openFailure = "the job store could not be opened"

    /// The engine, or nil when it cannot be opened (answer `unavailable`).
    var engineIfAvailable: JobEngine? { try? engine() }

    /// The answer of a route whose engine cannot be opened.
    static var unavailable: Response { JobHTTP.error(.internalError, openFailure) }

    /// The engine if it was opened (shutdown has nothing to stop otherwise).
    package var openedEngine: JobEngine? { opened.withLock { $0 } }
}
