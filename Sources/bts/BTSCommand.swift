import ArgumentParser
import BTSLanguage
import BTSShell
import BTSTerminal
import BooksTrackClient
import BooksTrackContract
import BooksTrackEmbedding
import BooksTrackSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `bts`: the REPL, a script, `-c` commands, or commands read from stdin.
struct BTSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bts",
        abstract: "The BooksTrack shell: search, enrich and import books from a scriptable REPL.",
        usage: """
            bts [<options>] [FILE.bts [ARG...]]
            bts test|check|fmt [<options>] PATH...
            bts serve [FLAGS...]
            bts lsp
            bts api [METHOD] PATH [<api options>]
            bts help [COMMAND]
            """,
        discussion: """
            FILE.bts [ARG...] runs a script with its arguments ($1..$n), as -f FILE.bts does. \
            'bts help COMMAND' shows a shell command's help (as 'help COMMAND' inside bts), 'bts help test' \
            (check, fmt, serve) that subcommand's. 'bts api …' sends one request, as 'api …' inside bts \
            ('bts help api').

            With no FILE and no -c, bts reads commands interactively when stdin is a terminal, else it \
            reads them from stdin (no prompt). Type 'help' inside bts for the commands.

            Backend, first match wins: --local, --api, --profile, BTS_API_URL, the config file's \
            default_profile ($XDG_CONFIG_HOME/bts/config.toml), else the embedded backend.

            Exit status: \(ExitStatus.summary).
            """,
        // `--version` itself is answered in main.swift with `BTSVersion.full`, which reads the build
        // record from disk: a non-empty version here only makes the parser list the flag.
        version: BTSVersion.current,
        subcommands: StandaloneCommands.all.map { $0 as any ParsableCommand.Type }
    )

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customShort("c"),
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Run CMD (commands separated by ';'), then exit. Repeatable.", valueName: "CMD")
    )
    var commands: [String] = []

    @Option(
        name: .customShort("f"),
        help: ArgumentHelp(
            "Run the script FILE.bts (psql's -f); words after it are its $1..$n.",
            valueName: "FILE.bts"
        ),
        completion: .file(extensions: ["bts"])
    )
    var file: String?

    /// `FILE.bts ARG...`: not an argument the parser knows (main.swift splits it off the command
    /// line first; the usage line and the discussion say it). As a rest argument beside the
    /// subcommands it made zsh's _arguments fail on every TAB ("doubled rest argument definition")
    /// and made bash and fish take `serve` for a script name and offer bts's options after it.
    var script: [String] = []

    /// Set by ``splitScript(_:)`` for `bts api …`: the `-c` line is bts's own rendering of the
    /// words given, so an error names no place in it (as at the prompt).
    @Flag(name: .customLong(BTSCommand.commandLineCommandFlag), help: .hidden)
    var commandLineCommand = false

    static let commandLineCommandFlag = "command-line-command"

    /// The parsed properties (`script` is set by main.swift).
    enum CodingKeys: String, CodingKey {
        case global, commands, file, commandLineCommand
    }

    /// Options of bts that take a value (to find where the script name starts).
    static let valueOptions: Set<String> = [
        "--api", "--profile", "--output", "-o", "--timeout", "--dialect", "--limits", "-c", "-f", "--var", "--vars",
        "--generate-completion-script",
    ]  // its value (`zsh`) is not a script

    /// Splits the command line into bts's own options and `FILE.bts ARG...`: everything from the
    /// first word that is not an option (or after `--`) belongs to the script, options included,
    /// so `bts s.bts --verbose` passes `--verbose` to the script as `$1`.
    static func splitScript(_ arguments: [String]) -> (options: [String], script: [String]) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return (Array(arguments[..<index]), Array(arguments[(index + 1)...])) }
            if argument.hasPrefix("-"), argument != "-" {
                index += valueOptions.contains(argument) ? 2 : 1
                continue
            }
            if index == 0, argument == "help" {
                // `bts help serve` is `bts serve --help`; `bts help` the top-level help; `bts help
                // search` the shell's `help search` as text (what the REPL prints), also in a pipe,
                // as `bts --help` is (`bts -c 'help search' | jq` reads it as a JSON string).
                let topic = Array(arguments.dropFirst())
                if let standalone = StandaloneCommands.named(topic.first) { return ([standalone.name, "--help"], []) }
                if topic.isEmpty || topic.first?.hasPrefix("-") == true { return (["--help"] + topic, []) }
                return (["--output", OutputFormat.table.rawValue, "-c", ScriptWords.line(["help"] + topic)], [])
            }
            if index == 0, StandaloneCommands.named(argument) != nil { return (arguments, []) }
            // `bts api PATH …`: a shell command that runs from the command line, once, its words as
            // given; bts's options before it still apply (`bts --api URL api /health`).
            if CommandRegistry.standard.command(named: argument)?.runsFromCommandLine == true,
                !FileManager.default.fileExists(atPath: argument)
            {
                return (
                    Array(arguments[..<index])
                        + ["--\(commandLineCommandFlag)", "-c", ScriptWords.line(Array(arguments[index...]))], []
                )
            }
            // `bts --api URL test tests/`: bts's options before a subcommand go after its name (unless
            // a script of that name is here), where the subcommand reads them (or refuses them).
            if StandaloneCommands.named(argument) != nil, !FileManager.default.fileExists(atPath: argument) {
                return ([argument] + arguments[..<index] + arguments[(index + 1)...], [])
            }
            return (Array(arguments[..<index]), Array(arguments[index...]))
        }
        return (arguments, [])
    }

    /// Runs and returns the exit status; the backend is always shut down first. Throws a usage
    /// error (a bad `--var` or `--vars`) before anything starts.
    func execute() async throws -> Int32 {
        let variables = try global.startingVariables()
        let environment = ProcessInfo.processInfo.environment
        let terminal = TerminalInfo.detect(environment: environment)
        let interactive = commands.isEmpty && script.isEmpty && terminal.stdinIsTerminal
        var history: HistoryStore?
        // A session at the prompt is long-lived, like `bts serve`: its model weights are its own.
        if interactive { SentenceEncoder.weightsInOwnMemory = true }
        if interactive {
            // The history file under XDG_STATE_HOME, loaded; lines the registry calls sensitive are never kept.
            history = InteractiveTerminal.makeHistory(environment: environment)
        }
        let scriptName = script.first ?? "bts"
        var options = global.shellOptions(
            terminal: terminal,
            environment: environment,
            scriptName: scriptName,
            scriptArguments: Array(script.dropFirst()),
            history: history,
            variables: variables
        )
        options.commandsComeFromStandardInput = ShellOptions.readsCommandsFromStandardInput(
            commands: commands,
            script: script
        )
        options.showsErrorLocations = !commandLineCommand
        let shell = Shell(options: options)
        let signals = SignalWatcher()
        let status: Int32
        if interactive {
            // libedit's line editor: TAB completion from this session's context, continuation lines.
            let terminal = InteractiveTerminal.make(environment: environment, history: history)
            status = await shell.runInteractive(
                reader: terminal.reader,
                signals: signals,
                completion: terminal.completion
            )
            history?.flush()
        } else {
            let commands = self.commands
            let script = self.script
            // On NIO's loops (EventLoopGlobalExecutor), or else preferring the API client's loop
            // (ClientEventLoop): a request's answer is read, decoded and rendered without a thread
            // hand-off.
            let work = Task.preferring(options.backendOptions.executor) { () -> Int32 in
                let status: Int32
                if !commands.isEmpty {
                    let sources = commands.enumerated().map { index, text in
                        (text: text, name: commands.count == 1 ? "-c" : "-c#\(index + 1)")
                    }
                    status = await shell.runSources(sources)
                } else if let path = script.first {
                    status = await shell.runFile(URL(fileURLWithPath: path))
                } else {
                    // Piped commands run as they arrive (a FILE is checked whole first, above).
                    let reader = PlainLineReader(fileDescriptor: STDIN_FILENO, isComplete: { Parser.isComplete($0) })
                    status = await shell.runStream(reader)
                }
                // The embedded backend's jobs end with this process: finished first.
                return await shell.finishEmbeddedJobs(after: status)
            }
            // The first signal decides the exit status: 130 for Ctrl-C, 143 SIGTERM, 129 SIGHUP.
            let firstSignalStatus = Mutex<Int32?>(nil)
            let listener = Task {
                var signalled = 0
                for await event in signals.events where event != .windowChanged {
                    signalled += 1
                    let eventStatus = event == .interrupt ? ExitStatus.interrupted.rawValue : event.exitStatus
                    firstSignalStatus.withLock { if $0 == nil { $0 = eventStatus } }
                    work.cancel()
                    // A second signal, or a command that ignores cancellation for 3 s, ends the
                    // process at once (the server dies with it; nothing is left running).
                    if signalled > 1 {
                        Foundation.exit(event.exitStatus == 143 ? 143 : ExitStatus.interrupted.rawValue)
                    }
                    let status = event == .interrupt ? ExitStatus.interrupted.rawValue : event.exitStatus
                    Task.detached {
                        try? await Task.sleep(for: .seconds(3))
                        Foundation.exit(status)
                    }
                }
            }
            let result = await work.value
            listener.cancel()
            status = firstSignalStatus.withLock { $0 } ?? (work.isCancelled ? ExitStatus.interrupted.rawValue : result)
        }
        signals.stop()
        await Self.shutdown(shell, within: .seconds(3))
        return await shell.settleOutput(status)
    }
}

extension BTSCommand {
    /// Shuts the backend down (API client, embedded server), waiting at most `limit`: a shutdown that
    /// never completes (seen intermittently after a failed `connect`) must not keep bts from exiting;
    /// the process exit that follows closes every socket anyway.
    static func shutdown(_ shell: Shell, within limit: Duration) async {
        // Whichever ends first resumes: the shutdown, or the time limit (the other task is left to
        // the process exit). No polling: a one-shot command exits as soon as the shutdown is done.
        let finished = FirstOutcome<Bool>()
        Task {
            await shell.shutdown()
            finished.resolve(true)
        }
        Task {
            try? await Task.sleep(for: limit)
            finished.resolve(false)
        }
        if await !finished.value {
            FileHandle.standardError.write(Data("bts: the backend did not shut down in time; exiting anyway\n".utf8))
        }
    }
}
