import ArgumentParser
import BTSLanguage
import BTSShell
import BTSTerminal
import Foundation

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
            "code", "message"} ([] when all is clean). github: a GitHub Actions workflow command per \
            problem on stdout (::error file=F,line=L,col=C::MESSAGE), shown on the pull request. A \
            command-line error (no such file, no .bts files) is text on stderr in every format.

            Exit status: 0 no errors, 2 errors.
            """)

    /// How the problems are reported.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, github
    }

    @ArgumentParser.Argument(help: ArgumentHelp("Script files, directories of them, or - for stdin.", valueName: "PATH"),
                             completion: .file(extensions: ["bts"]))
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp("How to report: text on stderr, json (one document on stdout) or github (workflow commands on stdout).",
                                            valueName: "FORMAT"))
    var format: Format = .text

    @Flag(name: .customLong("no-color"), help: "Never colour the output (NO_COLOR does the same).")
    var noColor = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give the files to check, e.g. bts check script.bts (or - for stdin)") }
        if paths.contains("-"), paths.count > 1 { throw ValidationError("- (stdin) is given alone, without files") }
    }

    static func start(_ arguments: [String]) async throws -> Int32 { try await parse(arguments).execute() }

    func execute() async -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        // A session for its registry and reporter only: no backend is opened by a check.
        let shell = Shell(options: ShellOptions(noColor: noColor, terminal: TerminalInfo.detect(environment: environment),
                                                environment: environment))
        let status = await check(with: shell)
        await shell.shutdown()
        return status
    }

    private func check(with shell: Shell) async -> Int32 {
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
            if format == .text, file != "-" {
                if await shell.checkFile(file) != ExitStatus.ok.rawValue { status = ExitStatus.usage.rawValue }
                continue
            }
            let name = file == "-" ? "<stdin>" : file
            let text: String
            do throws(ScriptFile.Failure) {
                text = try file == "-" ? ScriptFile.loadStandardInput().text : ScriptFile.read(file)
            } catch {
                status = ExitStatus.usage.rawValue
                if format == .text {
                    await shell.reportFailure(ShellError(.usage, error.sentence(name)), in: nil)
                } else {
                    findings.append(.unreadable(name, error))
                }
                continue
            }
            if format == .text {
                if await shell.checkText(text, name: name) != ExitStatus.ok.rawValue { status = ExitStatus.usage.rawValue }
                continue
            }
            let found = CheckFinding.findings(await shell.diagnostics(of: text, name: name), in: SourceFile(name: name, text: text))
            if found.contains(where: \.isError) { status = ExitStatus.usage.rawValue }
            findings += found
        }
        switch format {
        case .text: break
        case .json: Self.print(CheckFinding.json(findings))
        case .github: Self.print(findings.map(\.githubCommand).joined())
        }
        return status
    }

    private static func print(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
