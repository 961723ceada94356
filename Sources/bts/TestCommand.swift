import ArgumentParser
import BTSScriptTesting
import BTSShell
import BTSTerminal
import Foundation
import Synchronization

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
            PATH is a .bts file or a directory (its *.bts files at any depth, in name order). \
            --filter PATTERN runs only the files whose path matches a glob (fnmatch rules, where * and ? \
            match / too: '*search*' is every path with search in it); repeated, a file matching any \
            runs; the others are neither run nor reported. Each file runs in a session of its own: its \
            own variables, $_, aliases and settings, and a scratch library that starts empty \
            (--user-library: yours). A file passes when it runs to its end (exit 0), fails when an \
            expect fails (exit 4) and errors on anything else (a syntax error, a failing command, an \
            unreachable server, its time limit, a signal). Each file's line says its result and time; a \
            failure shows where (file:line:col) and both sides of the expect, and a file that did not \
            pass shows what it wrote (the last \(ScriptTestRun.shownOutput.lines) lines of each \
            stream). The reports have one testcase per file, with what it wrote on stdout and on stderr, \
            its pipelines' stderr included (up to \(CapturedText.limit / 1024) KiB of each, then \
            '… N bytes more'); nothing a file writes reaches the terminal.

            --file-timeout stops a file that runs longer (default: no limit): its requests, sleep, \
            loops and pipelines (their whole process group) are stopped, the file is an error \
            'timed out after 30s', and the run goes on. A signal (Ctrl-C, SIGTERM, SIGHUP) stops the \
            running files the same way ('interrupted by SIGTERM'), starts no more, and writes the \
            summary and the reports; a second signal ends bts at once.

            Exit status: 0 every file passed, 1 a file failed or errored, was not run (--fail-fast) or \
            a report could not be written, 2 usage error (no such file, no .bts files, no file matches \
            --filter, a bad option), 130 interrupted (143 SIGTERM, 129 SIGHUP).
            """
    )

    static let watchesSignals = true

    @OptionGroup var global: RunOptions<TestRun>

    @ArgumentParser.Argument(
        help: ArgumentHelp("Test files, or directories of them.", valueName: "PATH"),
        completion: .file(extensions: ["bts"])
    )
    var paths: [String] = []

    @Option(name: [.long, .customShort("j")], help: ArgumentHelp("Run N files at once.", valueName: "N"))
    var jobs = 1

    @Flag(name: .long, help: "Start no more files after the first that fails or errors.")
    var failFast = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run only the files whose path matches PATTERN, a glob whose * also matches / (repeatable: any match runs).",
            valueName: "PATTERN"
        )
    )
    var filter: [String] = []

    @Option(
        name: .customLong("file-timeout"),
        help: ArgumentHelp(
            "Stop a file that runs longer than DURATION (500ms, 30s, 2m; default: no limit): an error, and the run goes on.",
            valueName: "DURATION"
        )
    )
    var fileTimeout: String?

    @Flag(name: .long, help: "Let the tests use your library (default: a scratch library per file).")
    var userLibrary = false

    @Option(
        name: .customLong("report-junit"),
        help: ArgumentHelp("Write a JUnit XML report to FILE.", valueName: "FILE"),
        completion: .file()
    )
    var junit: String?

    @Option(
        name: .customLong("report-tap"),
        help: ArgumentHelp("Write a TAP (version 13) report to FILE.", valueName: "FILE"),
        completion: .file()
    )
    var tap: String?

    @Option(
        name: .customLong("report-json"),
        help: ArgumentHelp("Write a JSON report to FILE.", valueName: "FILE"),
        completion: .file()
    )
    var json: String?

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give the test files or directories, e.g. bts test tests/") }
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be 1 to 64 (got \(jobs))") }
        _ = try fileTimeLimit()
    }

    /// `--file-timeout`'s duration (nil: no limit), read as `sleep` reads one; a usage error when
    /// it is not a duration or is 0.
    func fileTimeLimit() throws -> Duration? {
        guard let fileTimeout else { return nil }
        guard let limit = ValueType.parseDuration(fileTimeout), limit > .zero else {
            throw ValidationError(
                "--file-timeout must be \(ValueType.duration.expectation), more than 0 (got '\(fileTimeout)')"
            )
        }
        return limit
    }

    /// After a signal, the longest the run may take to stop its files and write its reports
    /// before bts ends without them (the files' own grace is `ScriptTestRunner.stopGrace`).
    static let lastResort: Duration = ScriptTestRunner.stopGrace * 4

    static func start(_ arguments: [String]) async throws -> Int32 { try await parse(arguments).execute() }

    func execute() async throws -> Int32 {
        let found: [String]
        do throws(ShellError) {
            found = try ScriptFile.discover(paths)
        } catch {
            return ErrorReporter.write(error, origin: "bts test")
        }
        let filter = ScriptTestFilter(filter)
        let files = filter.select(found)
        guard !files.isEmpty else {
            return ErrorReporter.write(ShellError(.usage, filter.nothingMatches(of: found.count)), origin: "bts test")
        }
        let variables = try global.startingVariables()  // a bad --var or --vars: a usage error before any file runs
        let environment = ProcessInfo.processInfo.environment
        let terminal = TerminalInfo.detect(environment: environment)
        let colored =
            terminal.stderrIsTerminal && ShellSettings.autoColor(noColor: global.noColor, environment: environment)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bts-test-\(getpid())",
            isDirectory: true
        )
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (global, userLibrary) = (self.global, self.userLibrary)
        let runner = ScriptTestRunner(files: files, jobs: jobs, failFast: failFast, fileTimeout: try fileTimeLimit()) {
            file,
            sink in
            // Each file's own session: nothing of another file's is seen (jobs included: a state
            // directory of its own).
            var options = global.shellOptions(
                terminal: .pipes,
                environment: environment,
                scriptName: file,
                scriptArguments: [],
                history: nil,
                variables: variables
            )
            options.recordsFailures = true
            options.settings.library = userLibrary ? .yours : .scratch
            options.paths.stateDirectory = scratch.appendingPathComponent(UUID().uuidString, isDirectory: true)
            return Shell(options: options, sink: sink)
        }
        // The first signal stops the run (its running files become errors "interrupted by
        // SIGTERM", no more start, the summary and reports are written) and decides the status:
        // 130 for Ctrl-C, 143 SIGTERM, 129 SIGHUP. Heard on the signal hub's own thread: busy
        // files may hold every thread of Swift's pool. A second signal ends bts at once.
        let control = ScriptTestRunControl()
        let firstSignal = Mutex<SignalWatcher.Event?>(nil)
        let signals = SignalWatcher([.interrupt, .terminate, .hangup]) { event in
            let isFirst = firstSignal.withLock { first in
                guard first == nil else { return false }
                first = event
                return true
            }
            guard isFirst else { _exit(event.exitStatus) }
            control.stop(.interrupted(signal: event.signalNumber))
            Self.end(with: event.exitStatus, unlessDoneWithin: Self.lastResort)
        }
        let run = await runner.run(control: control) { result in
            var text = ScriptTestRun.line(for: result, colored: colored)
            if let captured = ScriptTestRun.capturedOutput(for: result, colored: colored) { text += "\n" + captured }
            Self.printLine(text)
        }
        signals.stop()
        let signalled = firstSignal.withLock { $0 }
        let notRun = files.count - run.results.count
        if notRun > 0 {
            let why = control.stopReason?.message ?? "--fail-fast"
            Self.printLine("\(notRun) file\(notRun == 1 ? "" : "s") not run (\(why))")
        }
        Self.printLine(run.totals(colored: colored))
        var status: Int32 = run.succeeded && notRun == 0 ? ExitStatus.ok.rawValue : ExitStatus.failure.rawValue
        for (path, text) in [(junit, run.junitXML()), (tap, run.tap()), (json, run.json())] {
            guard let path, let failure = ScriptTestRun.writeReport(text, to: path) else { continue }
            status = ErrorReporter.write(failure, origin: "bts test")
        }
        return signalled?.exitStatus ?? status
    }

    /// Ends the process with `status` when it is still running `limit` from now (a thread of its
    /// own: a run that cannot stop must not keep bts from ending after a signal).
    private static func end(with status: Int32, unlessDoneWithin limit: Duration) {
        let seconds = Double(limit.components.seconds)
        let thread = Thread {
            Thread.sleep(forTimeInterval: seconds)
            printLine(
                "bts test: the files did not stop within \(ScriptTestStop.spoken(limit)) of the signal; exiting without the reports"
            )
            _exit(status)
        }
        thread.stackSize = 256 * 1024
        thread.start()
    }

    private static func printLine(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
