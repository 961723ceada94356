import BTSLanguage
import BooksTrackContract
import Foundation

/// What ``ScriptRunner`` needs of the session it runs statements in: the interpreter's state, the
/// variables and `$?`, the settings that decide when a run stops, and the running of one command.
/// ``Shell`` is the host of a session; a test can be one without any I/O.
protocol ScriptHost: Actor {
    /// Nesting, `$1..$n`, aliases, `exit`, the source running now.
    var state: InterpreterState { get set }
    /// Named variables (a `for` loop sets its variable).
    var variables: [String: JSONValue] { get set }
    /// `$?`.
    var lastStatus: Int32 { get set }
    var settings: ShellSettings { get }
    var registry: CommandRegistry { get }
    /// What `$…` reads right now.
    var scope: VariableScope { get }
    /// The whole-script check with the registry and the aliases defined so far.
    var checker: ScriptChecker { get }
    /// Whether standard output failed: the run must stop.
    var outputFailed: Bool { get }
    /// Whether a failure stops the run (`set onerror stop` without `--continue-on-error`).
    var stopsOnError: Bool { get }
    /// Runs one command, reports its error, updates `$?`, `$_` and the timing; its status.
    func execute(_ resolved: ResolvedCommand, _ context: SourceContext) async -> Int32
    /// Whether an `if`/`elif`/`while` condition holds (as `expect` evaluates it, without failing).
    func holds(_ condition: Command) throws(ShellError) -> Bool
    /// Renders an error on stderr.
    func report(_ error: ShellError, in source: SourceFile?, interactive: Bool)
    /// A path relative to the running script's directory (or the working directory).
    func resolvePath(_ path: String) -> URL
    /// Runs `body` with stdout sent where `redirection` says (`> FILE`, `>> FILE`, `| pipeline`).
    func withRedirection(
        _ redirection: Redirection?,
        option: OutputFormat?,
        _ body: () async throws -> Void
    ) async throws
}
