import ArgumentParser
import BTSShell
import BTSTerminal
import Foundation

/// `bts check PATH…`: the whole-script check, without running anything.
struct CheckCommand: StandaloneCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check .bts files without running them: every syntax and usage error, no request made.",
        usage: "bts check [--no-color] PATH...",
        discussion: """
            PATH is a .bts file, a directory (its *.bts files at any depth), or - (stdin). Each file gets the check a \
            script gets before it runs: syntax, blocks, commands, subcommands, options and their values, \
            conditions; aliases the file defines are known. Nothing runs and no server is contacted.

            Exit status: 0 no errors, 2 errors (each reported as file:line:col with the line and a caret).
            """)

    @ArgumentParser.Argument(help: ArgumentHelp("Script files, directories of them, or - for stdin.", valueName: "PATH"),
                             completion: .file(extensions: ["bts"]))
    var paths: [String] = []

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
        if paths == ["-"] {
            do throws(ScriptFile.Failure) {
                return await shell.checkText(try ScriptFile.read("/dev/stdin"), name: "<stdin>")
            } catch {
                return ErrorReporter.write(ShellError(.usage, "cannot read stdin: \(error.reason)"), origin: "bts check")
            }
        }
        let files: [String]
        do throws(ShellError) {
            files = try ScriptFile.discover(paths)
        } catch {
            return ErrorReporter.write(error, origin: "bts check")
        }
        var status = ExitStatus.ok.rawValue
        for file in files where await shell.checkFile(file) != ExitStatus.ok.rawValue {
            status = ExitStatus.usage.rawValue
        }
        return status
    }
}
