import BTSLanguage
import BTSTerminal
import BooksTrackCatalog
import BooksTrackClient
import BooksTrackContract
import BooksTrackLibrary
import Foundation

/// What a command runs against, composed of the facets commands use: the API, the library, the
/// session's state and output, and the words and scripts being run. ``Shell`` is the context of a
/// session; a command sees only these. (Helpers take the whole context: an isolated existential
/// of one facet is not known to be the caller's actor, so each call would have to hop.)
protocol CommandContext: APIContext, LibraryContext, SessionContext, ScriptContext {}

/// The server: the backend and its calls, the response cache, the config and the session's jobs.
protocol APIContext: Actor {
    /// The open backend, opened (and its capabilities read) on first use.
    func backend() async throws(ShellError) -> BackendConnection
    /// The backend if one is open (never opens one).
    var connection: BackendConnection? { get }
    /// Opens `target` and makes it current (`connect`); with `requireReachable` an unreachable
    /// target is refused and the current backend stays.
    func open(_ target: BackendTarget, requireReachable: Bool) async throws(ShellError) -> BackendConnection
    /// The config file, loaded once.
    func loadConfig() throws(ShellError) -> ShellConfig
    /// `last` or a job id → the id and the session's record of it, the jobs remembered for the
    /// session's backend loaded first (a job command may be a process's first command).
    func findJob(_ reference: String?) throws(ShellError) -> (id: String, record: SessionJob?)
    /// Whether a call of the running command timed out (a library answer then says "timed out",
    /// not "unreachable").
    var serverTimedOut: Bool { get }
    /// The on-disk response cache of the session's backend (never opens the backend); nil for the
    /// embedded backend, which is not cached.
    func responseCache() throws(ShellError) -> (backend: String, directory: URL, cache: ResponseDiskCache?)
    /// One API call under `policy`: gate check, budget admission, the spinner, the call, bookkeeping.
    func call<T: Sendable>(
        as policy: CallPolicy,
        _ body: @Sendable (BooksTrackAPI) async throws -> APIResponse<T>
    ) async throws -> APIResponse<T>
    /// The running command's policy, set by the dispatcher from its type (``CallPolicy/init(route:label:)``).
    var callPolicy: CallPolicy { get }
}

/// The user's own books and the bundled catalog (neither needs a backend).
protocol LibraryContext: Actor {
    /// The user's library (opened on first use).
    func library() throws(ShellError) -> BookLibrary
    /// Records that the library changed (completion reloads its shelves, ISBNs and titles).
    func libraryChanged()
    /// The bundled catalog, for what the shell computes itself.
    func catalog() throws(ShellError) -> SQLiteCatalog
}

/// The session's output, settings and memory.
protocol SessionContext: Actor {
    var output: ShellOutput { get }
    var settings: ShellSettings { get set }
    var variables: [String: JSONValue] { get set }
    var jobs: SessionJobs { get set }
    /// `alias NAME TEXT`.
    var aliases: [String: String] { get set }
    /// The last title or author search (for `more`).
    var lastSearch: SearchPage? { get set }
    /// `$?`.
    var lastStatus: Int32 { get }
    /// `$_`: the result of the last command that produced data.
    var lastResult: JSONValue { get }
    /// The cost of the last command (`timing`).
    var lastMetrics: CommandMetrics { get }
    /// The interactive history (for `history`); nil when none is kept.
    var history: HistoryStore? { get }
    /// Asks the session to end with `status` (`exit`).
    func requestExit(_ status: Int32)
    /// Whether the command was typed at the prompt, where the user can follow up (`more`); not in
    /// a `-c` run, a script or a stream.
    var atPrompt: Bool { get }
}

/// The words and scripts being run.
protocol ScriptContext: Actor {
    /// The structured value of a word (a lone `${…}` keeps its structure), else its text.
    func value(of word: Word) -> Result<JSONValue, ShellError>
    /// A path relative to the running script's directory (or the working directory).
    func resolvePath(_ path: String) -> URL
    /// Whether standard input carries the commands being run (``ShellOptions/commandsComeFromStandardInput``).
    var commandsComeFromStandardInput: Bool { get }
    /// Runs a script file in this session (`source`); with `arguments`, they are its `$1..$n` meanwhile.
    func source(_ url: URL, shownAs path: String, range: SourceRange?, arguments: [String]?) async throws
    /// Runs a command line in this session (`every`); returns its status (its errors reported).
    func runLine(_ text: String, name: String) async throws -> Int32
}

extension APIContext {
    /// One API call as the running command's type says (its gate, budget and name).
    func call<T: Sendable>(
        _ body: @Sendable (BooksTrackAPI) async throws -> APIResponse<T>
    ) async throws -> APIResponse<T> {
        try await call(as: callPolicy, body)
    }
}
