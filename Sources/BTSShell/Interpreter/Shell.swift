import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// Everything a shell session is started with (global options, environment, streams).
public struct ShellOptions: Sendable {
    public var backend: BackendRequest
    public var backendOptions: BackendOptions
    public var settings: ShellSettings
    /// `--continue-on-error`.
    public var continueOnError: Bool
    /// `--no-color`.
    public var noColor: Bool
    public var terminal: TerminalInfo
    public var environment: [String: String]
    public var paths: XDGPaths
    /// `$0` and `$1..$n`.
    public var scriptName: String
    public var scriptArguments: [String]
    /// The interactive history (for `history`); nil when none is kept.
    public var history: HistoryStore?

    public init(
        backend: BackendRequest = BackendRequest(), backendOptions: BackendOptions? = nil,
        settings: ShellSettings = ShellSettings(), continueOnError: Bool = false, noColor: Bool = false,
        terminal: TerminalInfo = .pipes, environment: [String: String] = ProcessInfo.processInfo.environment,
        scriptName: String = "bts", scriptArguments: [String] = [], history: HistoryStore? = nil
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
public actor Shell {
    public let registry = CommandRegistry.standard
    public internal(set) var settings: ShellSettings
    let options: ShellOptions
    let sink: any OutputSink

    /// Named variables (`set NAME VALUE`).
    public internal(set) var variables: [String: JSONValue] = [:]
    /// `$_`: the result of the last command that produced data.
    public internal(set) var lastResult: JSONValue = .null
    /// `$?`.
    public internal(set) var lastStatus: Int32 = 0
    /// Jobs started in this session, oldest first.
    public internal(set) var jobs: [SessionJob] = []
    /// The cost of the last command (`timing`).
    public internal(set) var lastMetrics = CommandMetrics()

    var connection: BackendConnection?
    var currentMetrics = CommandMetrics()
    /// Set by `exit`: stop everything and leave with this status.
    var exitRequest: Int32?
    var sourceDepth = 0
    var deprecationsShown: Set<String> = []
    var retryObserverInstalled = false
    var config: ShellConfig?

    public init(options: ShellOptions, sink: any OutputSink = StandardOutputSink()) {
        self.options = options
        self.settings = options.settings
        self.sink = sink
    }

    /// Stops the API client and the embedded server. Safe to call more than once.
    public func shutdown() async {
        if let connection {
            self.connection = nil
            await connection.shutdown()
        }
    }

    /// The status `exit` asked for, if it ran.
    public var requestedExit: Int32? { exitRequest }

    // MARK: Output

    /// Whether ANSI styles may go to `stream`: only on a terminal, never with `--no-color`,
    /// `NO_COLOR` (unless `set color on`) or `set color off`.
    func colored(_ stream: OutputStream) -> Bool {
        let isTerminal = stream == .standardOutput ? options.terminal.stdoutIsTerminal : options.terminal.stderrIsTerminal
        guard isTerminal else { return false }
        switch settings.color {
        case .off: return false
        case .on: return true
        case .auto: return !options.noColor && options.environment["NO_COLOR"].map(\.isEmpty) ?? true
        }
    }

    /// The output format in effect: the setting, else table on a terminal and json otherwise.
    var outputFormat: OutputFormat {
        settings.output ?? (options.terminal.stdoutIsTerminal ? .table : .json)
    }

    func out(_ text: String) {
        guard !text.isEmpty else { return }
        sink.write(text, to: .standardOutput)
    }

    /// A human message on stderr (silenced by `--quiet`).
    func note(_ text: String) {
        guard !settings.quiet else { return }
        sink.write(text.hasSuffix("\n") ? text : text + "\n", to: .standardError)
    }

    /// A warning on stderr (silenced by `--quiet`).
    func warn(_ text: String) {
        note(ANSIStyle.yellow.apply("warning:", enabled: colored(.standardError)) + " " + TerminalText.sanitize(text, lines: .flatten))
    }

    /// Renders an error on stderr (errors are never silenced).
    func report(_ error: ShellError, in source: SourceFile?, interactive: Bool) {
        let reporter = ErrorReporter(colored: colored(.standardError), showsLocation: !interactive)
        sink.write(reporter.render(error, in: source), to: .standardError)
    }

    /// Prints a result in the current output format.
    func emit(_ value: JSONValue, _ view: ResultView, format: OutputFormat? = nil) {
        let format = format ?? outputFormat
        let renderer = ResultRenderer(
            format: format, colored: colored(.standardOutput), width: options.terminal.columns,
            prettyJSON: options.terminal.stdoutIsTerminal)
        out(renderer.render(value, view: view))
    }
}
