import BTSLanguage
import BTSTerminal
import BooksTrackClient
import BooksTrackContract
import Foundation

/// Everything a shell session is started with (global options, environment, streams).
package struct ShellOptions: Sendable {
    package var backend: BackendRequest
    package var backendOptions: BackendOptions
    package var settings: ShellSettings
    /// `--continue-on-error`.
    package var continueOnError: Bool
    /// `--no-color`.
    package var noColor: Bool
    package var terminal: TerminalInfo
    package var environment: [String: String]
    package var paths: XDGPaths
    /// `$0` and `$1..$n`.
    package var scriptName: String
    package var scriptArguments: [String]
    /// The interactive history (for `history`); nil when none is kept.
    package var history: HistoryStore?
    /// Run `$XDG_CONFIG_HOME/bts/rc.bts` when the REPL starts (`bts` without `--norc`).
    package var loadsRCFile = false
    /// The variables the session starts with (`--vars FILE`, `--var NAME=VALUE`: ``ScriptVariables``).
    package var variables: [String: String] = [:]
    /// Keep every reported error as data too (`bts test` reads them: ``Shell/recordedFailures``).
    package var recordsFailures = false
    /// Whether the commands come from standard input (the prompt, `bts < FILE`, `cat FILE | bts`,
    /// `bts /dev/stdin`): then nothing else reads it (`api --input -` refuses).
    package var commandsComeFromStandardInput = false
    /// Errors name their place (`-c:1:1:` and a snippet) outside the prompt; false when the line
    /// run is bts's own rendering of words given elsewhere (`bts api …`).
    package var showsErrorLocations = true

    package init(
        backend: BackendRequest = BackendRequest(),
        backendOptions: BackendOptions? = nil,
        settings: ShellSettings = ShellSettings(),
        continueOnError: Bool = false,
        noColor: Bool = false,
        terminal: TerminalInfo = .pipes,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        scriptName: String = "bts",
        scriptArguments: [String] = [],
        history: HistoryStore? = nil
    ) {
        let paths = XDGPaths(environment: environment)
        self.backend = backend
        self.backendOptions = backendOptions ?? BackendOptions(cacheDirectory: paths.cacheDirectory)
        self.settings = settings
        self.continueOnError = continueOnError
        self.noColor = noColor
        self.terminal = terminal
        self.environment = environment
        self.paths = paths
        self.scriptName = scriptName
        self.scriptArguments = scriptArguments
        self.history = history
    }
}

/// A bts session: variables, settings, `$_`/`$?`, the backend connection and the jobs started.
///
/// Run text with ``run(_:name:directory:)`` (a script: all syntax errors are reported before
/// anything runs) or line by line with ``runInteractive(reader:)``. Call ``shutdown()`` before
/// exiting: it stops the API client and the embedded server.
package actor Shell {
    package let registry = CommandRegistry.standard
    package internal(set) var settings: ShellSettings
    let options: ShellOptions
    let sink: any OutputSink

    /// Named variables (`set NAME VALUE`).
    package internal(set) var variables: [String: JSONValue] = [:]
    /// `$_`: the result of the last command that produced data.
    package internal(set) var lastResult: JSONValue = .null
    /// `$?`.
    package internal(set) var lastStatus: Int32 = 0
    /// `$_http`: the last HTTP exchange of the commands run so far (``adoptLastExchange()``).
    package internal(set) var lastExchange: HTTPExchange?
    /// The cost of the last command (`timing`).
    package internal(set) var lastMetrics = CommandMetrics()

    /// The backend, the calls' bookkeeping, the call policy, the library and the jobs.
    var services: SessionServices
    /// The interpreter's per-run state (nesting, `$1..$n`, aliases, `exit`, redirection, last search).
    var state: InterpreterState
    /// The terminal's width as last measured (SIGWINCH); nil until the first resize.
    var measuredColumns: Int?
    /// Every error reported, as data, when ``ShellOptions/recordsFailures`` is set.
    package private(set) var recordedFailures: [ScriptTestFailure] = []
    /// How many `expect`s ran.
    package internal(set) var expectationsRun = 0

    package init(options: ShellOptions, sink: any OutputSink = StandardOutputSink()) {
        self.options = options
        self.settings = options.settings
        self.sink = sink
        self.state = InterpreterState(positionalArguments: options.scriptArguments)
        self.variables = options.variables.mapValues(JSONValue.string)
        var services = SessionServices(backendSession: BackendSession(options: options, sink: sink))
        services.jobs.store = SessionJobStore(stateDirectory: options.paths.stateDirectory)
        self.services = services
    }

    /// Stops the API client and the embedded server and deletes the scratch library. Safe to call more than once.
    package func shutdown() async {
        await services.backendSession.shutdown()
        removeScratchLibrary()
    }

    // MARK: Output

    /// The output as the current settings shape it (while a redirection is active: into its
    /// buffer, in its format, without colour or a width limit).
    var output: ShellOutput {
        var current = options.terminal
        if let measuredColumns { current.columns = measuredColumns }
        return ShellOutput(
            sink: sink,
            redirect: state.redirect,
            terminal: current,
            noColor: options.noColor,
            environment: options.environment,
            settings: settings
        )
    }

    /// The terminal was resized (SIGWINCH): tables and help fit the new width from now on.
    func terminalResized(columns: Int? = TerminalInfo.width()) {
        guard options.terminal.stdoutIsTerminal || options.terminal.stderrIsTerminal, let columns else { return }
        measuredColumns = columns
    }

    /// Whether ANSI styles may go to `stream`.
    func colored(_ stream: OutputStream) -> Bool { output.colored(stream) }

    /// A human message on stderr (silenced by `--quiet`).
    func note(_ text: String) { output.note(text) }

    /// A warning on stderr (silenced by `--quiet`).
    func warn(_ text: String) { output.warn(text) }

    /// Renders an error on stderr (errors are never silenced).
    func report(_ error: ShellError, in source: SourceFile?, interactive: Bool) {
        output.report(error, in: source, interactive: interactive || !options.showsErrorLocations)
        if options.recordsFailures { recordedFailures += ScriptTestFailure.from(error, in: source) }
    }
}
