import ArgumentParser
import BTSEmbeddedBackend
import BTSShell
import BTSTerminal
import BooksTrackClient
import BooksTrackContract
import Foundation

extension OutputFormat: ExpressibleByArgument {}
extension EmbeddedLimits: ExpressibleByArgument {}

/// `--dialect`'s value: `auto` (ask the server) or one dialect by any of its names (`v1`, `v2`,
/// `legacy`, `v3`); anything else is refused by the argument parser, naming the values.
enum DialectChoice: ExpressibleByArgument, Sendable, Hashable {
    case auto
    case fixed(APIDialect)

    init?(argument: String) {
        if argument.lowercased() == "auto" {
            self = .auto
        } else if let dialect = APIDialect(name: argument) {
            self = .fixed(dialect)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ["auto"] + APIDialect.allCases.map(\.rawValue) }

    /// The dialect the client is held to, nil for `auto`.
    var dialect: APIDialect? {
        if case .fixed(let dialect) = self { return dialect }
        return nil
    }
}

/// What a run of bts can make of its options: only the interactive shell reads the rc file.
protocol RunKind {
    /// Whether the run starts an interactive shell, which runs `$XDG_CONFIG_HOME/bts/rc.bts` first.
    static var readsRCFile: Bool { get }
}

/// `bts`: the shell, interactive or running a script.
enum ShellRun: RunKind {
    static let readsRCFile = true
}

/// `bts test`: each file runs in a session of its own that never reads the rc file, so `--norc`
/// is accepted (the same options work for `bts` and `bts test`) but not listed in its help.
enum TestRun: RunKind {
    static let readsRCFile = false
}

/// The options of `bts` (docs/usage.md, "Global options").
typealias GlobalOptions = RunOptions<ShellRun>

/// The options every run of bts accepts (docs/usage.md, "Global options"); `Kind` says whether
/// `--norc` means anything there, and so whether its help lists it.
struct RunOptions<Kind: RunKind>: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Use the BooksTrack server at URL.", valueName: "URL"))
    var api: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Use a profile (built in: \(KnownBackend.names); more in config.toml).",
            valueName: "NAME"
        ),
        completion: .custom { _, _, prefix in ShellCompletions.profiles(prefix: prefix) }
    )
    var profile: String?

    @Flag(name: .long, help: "Use the embedded backend (an in-process server over the bundled catalog).")
    var local = false

    @Option(
        name: [.long, .customShort("o")],
        help: ArgumentHelp(
            "\(OutputFormat.spokenList) (default: table on a terminal, json otherwise).",
            valueName: "FORMAT"
        ),
        completion: .custom { _, _, prefix in ShellCompletions.outputFormats(prefix: prefix) }
    )
    var output: OutputFormat?

    @Flag(name: .customLong("no-color"), help: "Never colour the output (NO_COLOR does the same).")
    var noColor = false

    @Flag(name: .shortAndLong, help: "Silence progress, warnings and countdowns on stderr.")
    var quiet = false

    @Flag(name: .long, help: "Print every request and response on stderr (secrets masked).")
    var trace = false

    @Option(name: .long, help: ArgumentHelp("Deadline of each request (default 30).", valueName: "SECONDS"))
    var timeout: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "API dialect: auto (ask the server: v3, else v1/v2), v1 or v3 (default: auto; v1 on the embedded backend).",
            valueName: "DIALECT"
        ),
        completion: .custom { _, _, prefix in ShellCompletions.dialects(prefix: prefix) }
    )
    var dialect: DialectChoice?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The embedded backend's rate-limit budgets: none (it runs on this machine: nothing to wait for) or production (rehearse production's budgets) (default: none).",
            valueName: "BUDGETS"
        ),
        completion: .list(EmbeddedLimits.allCases.map(\.rawValue))
    )
    var limits: EmbeddedLimits?

    @Flag(
        name: .customLong("no-cache"),
        help:
            "Neither read nor keep a remote server's answers on disk in this run (BTS_CACHE=off does the same; a command's own --no-cache skips it for that command)."
    )
    var noCache = false

    @Flag(name: .long, help: "Keep running a script after a failing command.")
    var continueOnError = false

    @Flag(
        name: .long,
        help: "Fail with exit \(ExitStatus.rateLimited.rawValue) instead of waiting when a rate-limit budget is spent."
    )
    var noWait = false

    @Flag(
        name: .customLong("norc"),
        help: ArgumentHelp(
            "Do not run $XDG_CONFIG_HOME/bts/rc.bts at interactive start.",
            visibility: Kind.readsRCFile ? .default : .private
        )
    )
    var noRC = false

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp(
            "Start with the variable NAME set to VALUE (read as $NAME; repeatable; wins over --vars; a script's own 'set' wins over both).",
            valueName: "NAME=VALUE"
        )
    )
    var variables: [String] = []

    @Option(
        name: .customLong("vars"),
        help: ArgumentHelp(
            "Start with the variables of FILE: NAME=VALUE lines, '#' comments, as a .env file (repeatable).",
            valueName: "FILE"
        ),
        completion: .file()
    )
    var variablesFiles: [String] = []

    func validate() throws {
        if let timeout, !(timeout > 0 && timeout <= 3600) {
            throw ValidationError("--timeout must be more than 0 and at most 3600 seconds (got \(timeout))")
        }
        if local, api != nil || profile != nil {
            throw ValidationError("--local cannot be combined with --api or --profile")
        }
        if api != nil, profile != nil {
            throw ValidationError("--api and --profile cannot be combined")
        }
        if limits != nil, api != nil || profile != nil {
            throw ValidationError(
                "--limits sets the embedded backend's budgets; a server's own are shown and waited for"
            )
        }
    }

    /// The variables of `--vars` and `--var`, or why they were refused (a usage error).
    func startingVariables() throws -> [String: String] {
        switch ScriptVariables.collect(files: variablesFiles, assignments: variables) {
        case .success(let found): return found
        case .failure(let failure): throw ValidationError(failure.message)
        }
    }

    /// The shell's options for this run, starting with `variables` (``startingVariables()``).
    func shellOptions(
        terminal: TerminalInfo,
        environment: [String: String],
        scriptName: String,
        scriptArguments: [String],
        history: HistoryStore?,
        variables: [String: String]
    ) -> ShellOptions {
        var settings = ShellSettings()
        settings.output = output
        settings.quiet = quiet
        settings.trace = trace
        settings.wait = !noWait
        var options = ShellOptions(
            backend: BackendRequest(apiURL: api, profile: profile, forceEmbedded: local),
            settings: settings,
            continueOnError: continueOnError,
            noColor: noColor,
            terminal: terminal,
            environment: environment,
            scriptName: scriptName,
            scriptArguments: scriptArguments,
            history: history
        )
        options.loadsRCFile = Kind.readsRCFile && !noRC
        options.variables = variables
        if let timeout { options.backendOptions.timeout = .milliseconds(Int64(timeout * 1000)) }
        options.backendOptions.dialect = dialect?.dialect
        // `--no-cache` or `BTS_CACHE=off`: no on-disk response cache in this process.
        options.backendOptions.usesResponseCache = !noCache && environment["BTS_CACHE"]?.lowercased() != "off"
        options.backendOptions.embedded = LocalEmbeddedBackend(limits: limits ?? .none)
        // The shell's work runs on NIO's loops (EventLoopGlobalExecutor); without that hook, it
        // prefers its API client's loop (BTSCommand.execute).
        options.backendOptions.executor = EventLoopGlobalExecutor.isInstalled ? nil : ClientEventLoop.executor
        return options
    }
}
