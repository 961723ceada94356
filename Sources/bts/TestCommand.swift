import ArgumentParser
import BTSShell
import BTSTerminal
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `bts test PATH…`: script files as tests (hurl's `--test`), with a summary on stderr and
/// reports for CI.
struct TestCommand: StandaloneCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run .bts files as tests: a summary on stderr, JUnit, TAP and JSON reports for CI.",
        usage: "bts test [<options>] PATH...",
        discussion: """
            PATH is a .bts file or a directory (its *.bts files at any depth, in name order). Each file \
            runs in a session of its own: its own variables, $_, aliases and settings, and a scratch \
            library that starts empty (--user-library: yours). A file passes when it runs to its end \
            (exit 0), fails when an expect fails (exit 4) and errors on anything else (a syntax error, \
            a failing command, an unreachable server). Each file's line says its result and time; a \
            failure shows where (file:line:col) and both sides of the expect. The reports have one \
            testcase per file.

            Exit status: 0 every file passed, 1 a file failed or errored, 2 usage error (no such file, \
            no .bts files), 130 interrupted (143 SIGTERM, 129 SIGHUP).
            """)

    static let watchesSignals = true

    @OptionGroup var global: GlobalOptions

    @ArgumentParser.Argument(help: ArgumentHelp("Test files, or directories of them.", valueName: "PATH"),
                             completion: .file(extensions: ["bts"]))
    var paths: [String] = []

    @Option(name: [.long, .customShort("j")], help: ArgumentHelp("Run N files at once (default 1).", valueName: "N"))
    var jobs = 1

    @Flag(name: .long, help: "Start no more files after the first that fails or errors.")
    var failFast = false

    @Flag(name: .long, help: "Let the tests use your library (default: a scratch library per file).")
    var userLibrary = false

    @Option(name: .customLong("report-junit"), help: ArgumentHelp("Write a JUnit XML report to FILE.", valueName: "FILE"),
            completion: .file())
    var junit: String?

    @Option(name: .customLong("report-tap"), help: ArgumentHelp("Write a TAP (version 13) report to FILE.", valueName: "FILE"),
            completion: .file())
    var tap: String?

    @Option(name: .customLong("report-json"), help: ArgumentHelp("Write a JSON report to FILE.", valueName: "FILE"),
            completion: .file())
    var json: String?

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give the test files or directories, e.g. bts test tests/") }
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be 1 to 64 (got \(jobs))") }
    }

    static func start(_ arguments: [String]) async throws -> Int32 { try await parse(arguments).execute() }

    func execute() async throws -> Int32 {
        let files: [String]
        do throws(ShellError) {
            files = try ScriptFile.discover(paths)
        } catch {
            return ErrorReporter.write(error, origin: "bts test")
        }
        let variables = try global.startingVariables() // a bad --var or --vars: a usage error before any file runs
        let environment = ProcessInfo.processInfo.environment
        let terminal = TerminalInfo.detect(environment: environment)
        let colored = terminal.stderrIsTerminal && ShellSettings.autoColor(noColor: global.noColor, environment: environment)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bts-test-\(getpid())", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (global, userLibrary) = (self.global, self.userLibrary)
        let runner = ScriptTestRunner(files: files, jobs: jobs, failFast: failFast) { file, sink in
            // Each file's own session: nothing of another file's is seen (jobs included: a state
            // directory of its own).
            var options = global.shellOptions(terminal: .pipes, environment: environment, scriptName: file,
                                              scriptArguments: [], history: nil, variables: variables)
            options.recordsFailures = true
            options.settings.library = userLibrary ? .yours : .scratch
            options.paths.stateDirectory = scratch.appendingPathComponent(UUID().uuidString, isDirectory: true)
            return Shell(options: options, sink: sink)
        }
        let signals = SignalWatcher([.interrupt, .terminate, .hangup])
        let work = Task { await runner.run { result in Self.printLine(ScriptTestRun.line(for: result, colored: colored)) } }
        // The first signal decides the status: 130 for Ctrl-C, 143 SIGTERM, 129 SIGHUP; a second ends at once.
        let listener = Task { () -> Int32? in
            var first: Int32?
            for await event in signals.events {
                if first != nil { Foundation.exit(event.exitStatus) }
                first = event.exitStatus
                work.cancel()
            }
            return first
        }
        let run = await work.value
        signals.stop()
        listener.cancel()
        let signalStatus = work.isCancelled ? await listener.value : nil
        let notRun = files.count - run.results.count
        if notRun > 0 {
            Self.printLine("\(notRun) file\(notRun == 1 ? "" : "s") not run (\(work.isCancelled ? "interrupted" : "--fail-fast"))")
        }
        Self.printLine(run.totals(colored: colored))
        var status: Int32 = run.succeeded && notRun == 0 ? ExitStatus.ok.rawValue : ExitStatus.failure.rawValue
        for (path, text) in [(junit, run.junitXML()), (tap, run.tap()), (json, run.json())] {
            guard let path else { continue }
            do {
                let url = URL(fileURLWithPath: path)
                // A regular file is replaced whole; a device or a pipe (/dev/stdout) is written to.
                var info = stat()
                let special = stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG
                if !special {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                }
                try Data(text.utf8).write(to: url, options: special ? [] : .atomic)
            } catch {
                status = ErrorReporter.write(ShellError(.failure, "cannot write the report '\(path)': \(Self.reason(error))"),
                                             origin: "bts test")
            }
        }
        return signalStatus ?? (work.isCancelled ? ExitStatus.interrupted.rawValue : status)
    }

    private static func printLine(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A file system error in a few words (not Foundation's whole description).
    private static func reason(_ error: any Error) -> String {
        let code = (error as NSError).userInfo[NSUnderlyingErrorKey].map { ($0 as? NSError)?.code ?? 0 } ?? 0
        if code != 0, let text = strerror(Int32(code)) { return String(cString: text).lowercased() }
        return "its directory cannot be made or written"
    }
}
