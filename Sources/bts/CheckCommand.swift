import ArgumentParser
import BTSLanguage
import BTSShell
import BTSTerminal
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `bts check PATH…`: the whole-script check, without running anything.
struct CheckCommand: StandaloneCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check .bts files without running them: every syntax and usage error, no request made.",
        usage: "bts check [--format text|json|github] [--no-color] PATH...",
        discussion: """
            PATH is a .bts file, a directory (its *.bts files at any depth), or - (stdin). Each file gets the check a \
            script gets before it runs: syntax, blocks, commands, subcommands, options and their values, \
            conditions; aliases the file defines are known. Nothing runs and no server is contacted. A \
            script is read only if it is a regular file (or a link to one) of UTF-8 text: a FIFO, a \
            device or a socket is refused at once (passed over in a directory), a byte that is not UTF-8 \
            is reported with its line and offset; a leading byte-order mark is skipped.

            --format text (the default): each error as file:line:col with the line and a caret, on \
            stderr. json: one JSON document on stdout, a list of {"file", "line", "column", "severity", \
            "code", "rule", "message"} ([] when all is clean; "rule" names the mistake, e.g. \
            unknown-command). github: a GitHub Actions workflow command per \
            problem on stdout (::error file=F,line=L,col=C::MESSAGE), shown on the pull request. A \
            command-line error (no such file, no .bts files) is text on stderr in every format.

            Exit status: 0 no errors, 2 errors.
            """
    )

    /// How the problems are reported.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, github
    }

    @ArgumentParser.Argument(
        help: ArgumentHelp("Script files, directories of them, or - for stdin.", valueName: "PATH"),
        completion: .file(extensions: ["bts"])
    )
    var paths: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How to report: text on stderr, json (one document on stdout) or github (workflow commands on stdout).",
            valueName: "FORMAT"
        )
    )
    var format: Format = .text

    @Flag(name: .customLong("no-color"), help: "Never colour the output (NO_COLOR does the same).")
    var noColor = false

    func validate() throws {
        guard !paths.isEmpty else {
            throw ValidationError("give the files to check, e.g. bts check script.bts (or - for stdin)")
        }
        if paths.contains("-"), paths.count > 1 { throw ValidationError("- (stdin) is given alone, without files") }
    }

    static func start(_ arguments: [String]) async throws -> Int32 { try parse(arguments).execute() }

    func execute() -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let terminal = TerminalInfo.detect(environment: environment)
        // Errors as a script's are reported (with their place, in the terminal's width).
        let reporter = ErrorReporter(
            colored: terminal.stderrIsTerminal && ShellSettings.autoColor(noColor: noColor, environment: environment),
            showsLocation: true,
            width: terminal.stderrIsTerminal ? terminal.columns : nil
        )
        return check(with: ScriptChecker(), reporter)
    }

    private func check(with checker: ScriptChecker, _ reporter: ErrorReporter) -> Int32 {
        let files: [String]
        if paths == ["-"] {
            files = ["-"]
        } else {
            do throws(ShellError) {
                files = try ScriptFile.discover(paths)
            } catch {
                return ErrorReporter.write(error, origin: "bts check")
            }
        }
        var status = ExitStatus.ok.rawValue
        var findings: [CheckFinding] = []
        for file in files {
            let name = file == "-" ? "<stdin>" : file
            let text: String
            do throws(ScriptFile.Failure) {
                text = try file == "-" ? ScriptFile.loadStandardInput().text : ScriptFile.read(file)
            } catch {
                status = ExitStatus.usage.rawValue
                if format == .text {
                    let sentence = file == "-" ? error.sentence(name) : error.sentence(name, "cannot read script")
                    Self.report(reporter.render(ShellError(.usage, sentence), in: nil))
                } else {
                    findings.append(.unreadable(name, error))
                }
                continue
            }
            let source = SourceFile(name: name, text: text)
            let found = checker.diagnostics(of: text, name: name)
            if format == .text {
                guard found.containsErrors else { continue }
                status = ExitStatus.usage.rawValue
                Self.report(reporter.render(ShellError(diagnostics: found), in: source))
                continue
            }
            let checked = CheckFinding.findings(found, in: source)
            if checked.contains(where: \.isError) { status = ExitStatus.usage.rawValue }
            findings += checked
        }
        switch format {
        case .text: break
        case .json: Self.print(CheckFinding.json(findings))
        case .github: Self.print(findings.map(\.githubCommand).joined())
        }
        return status
    }

    /// Writes a report on stderr (as a session reports: a closed stderr is not a crash).
    private static func report(_ text: String) {
        _ = DescriptorWriter.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    private static func print(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
