import ArgumentParser
import BTSLanguage
import BTSShell
import BTSTerminal
import Foundation

/// `bts fmt [--check] PATH…`: the one layout of `.bts` files (``ScriptFormatter``).
struct FormatCommand: StandaloneCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Format .bts files in place in the one canonical layout (--check: only list what would change).",
        usage: "bts fmt [--check] [--no-color] PATH...\nbts fmt [--check] -",
        discussion: """
            PATH is a .bts file, a directory (its *.bts files at any depth), or - (stdin to stdout). The \
            layout: blocks indented two spaces per level, one space between words, '; ' between commands \
            on a line, ' | ' before a pipeline, comments kept (one space before a trailing one), at most \
            one blank line in a row, a final newline. Words are kept as written, quotes included, so the \
            formatted script runs as the original did. A file with syntax errors is left as it is and \
            its errors reported. Formatting twice changes nothing.

            Exit status: 0 done (with --check: every file is formatted), 1 with --check: some file would \
            change (each is listed on stdout), 2 a file has syntax errors or cannot be read or written.
            """)

    @ArgumentParser.Argument(help: ArgumentHelp("Script files, directories of them, or - for stdin.", valueName: "PATH"),
                             completion: .file(extensions: ["bts"]))
    var paths: [String] = []

    @Flag(name: .long, help: "Change nothing; list the files that are not formatted and exit 1 if there are any.")
    var check = false

    @Flag(name: .customLong("no-color"), help: "Never colour the output (NO_COLOR does the same).")
    var noColor = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give the files to format, e.g. bts fmt script.bts (or - for stdin)") }
        if paths.contains("-"), paths.count > 1 { throw ValidationError("- (stdin to stdout) is given alone, without files") }
    }

    static func start(_ arguments: [String]) async throws -> Int32 { try parse(arguments).execute() }

    func execute() -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let terminal = TerminalInfo.detect(environment: environment)
        let reporter = ErrorReporter(colored: terminal.stderrIsTerminal && ShellSettings.autoColor(noColor: noColor, environment: environment))
        if paths == ["-"] { return formatStandardInput(reporter) }
        let files: [String]
        do throws(ShellError) {
            files = try ScriptFile.discover(paths)
        } catch {
            return ErrorReporter.write(error, origin: "bts fmt")
        }
        var status = ExitStatus.ok.rawValue
        var unformatted = false
        for file in files {
            let text: String
            do throws(ScriptFile.Failure) {
                text = try ScriptFile.read(file)
            } catch {
                status = ErrorReporter.write(ShellError(.usage, "cannot read '\(file)': \(error.reason)"), origin: "bts fmt")
                continue
            }
            switch ScriptFormatter.format(SourceFile(name: file, text: text)) {
            case .failure(let failure):
                Self.write(reporter.render(ShellError(diagnostics: failure.diagnostics), in: failure.source))
                status = ExitStatus.usage.rawValue
            case .success(let formatted) where formatted == text:
                continue
            case .success(let formatted):
                if check {
                    print(file)
                    unformatted = true
                } else if let problem = Self.replace(file, with: formatted) {
                    status = ErrorReporter.write(ShellError(.usage, "cannot write '\(file)': \(problem)"), origin: "bts fmt")
                }
            }
        }
        if status == ExitStatus.ok.rawValue, unformatted { return ExitStatus.failure.rawValue }
        return status
    }

    /// `bts fmt -`: the script on stdin, formatted on stdout (editors pipe through it).
    private func formatStandardInput(_ reporter: ErrorReporter) -> Int32 {
        let text: String
        do throws(ScriptFile.Failure) {
            text = try ScriptFile.read("/dev/stdin")
        } catch {
            return ErrorReporter.write(ShellError(.usage, "cannot read stdin: \(error.reason)"), origin: "bts fmt")
        }
        switch ScriptFormatter.format(SourceFile(name: "<stdin>", text: text)) {
        case .failure(let failure):
            Self.write(reporter.render(ShellError(diagnostics: failure.diagnostics), in: failure.source))
            return ExitStatus.usage.rawValue
        case .success(let formatted):
            if check {
                guard formatted != text else { return ExitStatus.ok.rawValue }
                print("<stdin>")
                return ExitStatus.failure.rawValue
            }
            FileHandle.standardOutput.write(Data(formatted.utf8))
            return ExitStatus.ok.rawValue
        }
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Replaces the file's text, keeping its permissions (a new file beside it, renamed over it);
    /// nil when done, else why not.
    private static func replace(_ path: String, with text: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            return "the file or its directory is not writable"
        }
        if let permissions = attributes?[.posixPermissions] {
            try? FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        }
        return nil
    }
}
