import ArgumentParser
import BTSLanguage
import BTSShell
import BTSTerminal
import Foundation

/// `bts fmt [--check | --diff] PATH…`: the one layout of `.bts` files (``ScriptFormatter``).
struct FormatCommand: StandaloneCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract:
            "Format .bts files in place in the one canonical layout (--check: list, --diff: show what would change).",
        usage: "bts fmt [--check | --diff] [--no-color] PATH...\nbts fmt [--check | --diff] -",
        discussion: """
            PATH is a .bts file, a directory (its *.bts files at any depth), or - (stdin to stdout). The \
            layout: blocks indented two spaces per level, one space between words, '; ' between commands \
            on a line, ' | ' before a pipeline, comments kept (one space before a trailing one), at most \
            one blank line in a row, a final newline. Words are kept as written, quotes included, so the \
            formatted script runs as the original did. A file with syntax errors is left as it is and \
            its errors reported. Formatting twice changes nothing.

            Files: a script is read only if it is a regular file (or a link to one) of UTF-8 text; a \
            FIFO, a device or a socket is refused at once (and passed over in a directory), a byte that \
            is not UTF-8 is reported with its line and offset and the file left as it is; a leading \
            byte-order mark is skipped and kept. A link's target is rewritten (the link stays a link), \
            keeping its mode and owner; a read-only file (no write bit, as 0444) is refused.

            --diff changes nothing and prints a unified diff (--- a/FILE, +++ b/FILE, 3 lines of \
            context, as diff -u) of each file that would change: patch -p1 applies it.

            Exit status: 0 done (with --check or --diff: every file is formatted), 1 with --check or \
            --diff: some file would change, 2 a file has syntax errors or cannot be read or written.
            """
    )

    @ArgumentParser.Argument(
        help: ArgumentHelp("Script files, directories of them, or - for stdin.", valueName: "PATH"),
        completion: .file(extensions: ["bts"])
    )
    var paths: [String] = []

    @Flag(name: .long, help: "Change nothing; list the files that are not formatted and exit 1 if there are any.")
    var check = false

    @Flag(
        name: .long,
        help: "Change nothing; print a unified diff of each file that would change and exit 1 if there are any."
    )
    var diff = false

    @Flag(name: .customLong("no-color"), help: "Never colour the output (NO_COLOR does the same).")
    var noColor = false

    func validate() throws {
        guard !paths.isEmpty else {
            throw ValidationError("give the files to format, e.g. bts fmt script.bts (or - for stdin)")
        }
        if paths.contains("-"), paths.count > 1 {
            throw ValidationError("- (stdin to stdout) is given alone, without files")
        }
        if check, diff {
            throw ValidationError("--check and --diff are given apart (--diff too exits 1 when a file would change)")
        }
    }

    static func start(_ arguments: [String]) async throws -> Int32 { try parse(arguments).execute() }

    func execute() -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let terminal = TerminalInfo.detect(environment: environment)
        let reporter = ErrorReporter(
            colored: terminal.stderrIsTerminal && ShellSettings.autoColor(noColor: noColor, environment: environment)
        )
        // A diff shown on a terminal has the file's control characters made visible; piped, it is exact.
        let output = Output(sanitized: terminal.stdoutIsTerminal)
        if paths == ["-"] { return formatStandardInput(reporter, output) }
        let files: [String]
        do throws(ShellError) {
            files = try ScriptFile.discover(paths)
        } catch {
            return ErrorReporter.write(error, origin: "bts fmt")
        }
        var status = ExitStatus.ok.rawValue
        var unformatted = false
        for file in files {
            let contents: ScriptFile.Contents
            do throws(ScriptFile.Failure) {
                contents = try ScriptFile.load(file)
            } catch {
                status = ErrorReporter.write(ShellError(.usage, error.sentence(file)), origin: "bts fmt")
                continue
            }
            let text = contents.text
            switch ScriptFormatter.format(SourceFile(name: file, text: text)) {
            case .failure(let failure):
                Self.write(reporter.render(ShellError(diagnostics: failure.diagnostics), in: failure.source))
                status = ExitStatus.usage.rawValue
            case .success(let formatted) where formatted == text:
                continue
            case .success(let formatted):
                if check {
                    output.write(file + "\n")
                    unformatted = true
                } else if diff {
                    let name = file.drop { $0 == "/" }
                    output.write(
                        UnifiedDiff.make(old: text, new: formatted, oldName: "a/\(name)", newName: "b/\(name)")
                    )
                    unformatted = true
                } else {
                    let bytes = (contents.byteOrderMark ? ScriptFile.byteOrderMarkBytes : []) + Array(formatted.utf8)
                    do throws(UserFile.Failure) {
                        try UserFile.write(bytes, to: file, .script)
                    } catch {
                        status = ErrorReporter.write(
                            ShellError(.usage, "cannot write '\(file)': \(error.reason)"),
                            origin: "bts fmt"
                        )
                    }
                }
            }
        }
        if status == ExitStatus.ok.rawValue, unformatted { return ExitStatus.failure.rawValue }
        return status
    }

    /// `bts fmt -`: the script on stdin, formatted on stdout (editors pipe through it).
    private func formatStandardInput(_ reporter: ErrorReporter, _ output: Output) -> Int32 {
        let text: String
        do throws(ScriptFile.Failure) {
            text = try ScriptFile.loadStandardInput().text
        } catch {
            return ErrorReporter.write(ShellError(.usage, error.sentence("<stdin>")), origin: "bts fmt")
        }
        switch ScriptFormatter.format(SourceFile(name: "<stdin>", text: text)) {
        case .failure(let failure):
            Self.write(reporter.render(ShellError(diagnostics: failure.diagnostics), in: failure.source))
            return ExitStatus.usage.rawValue
        case .success(let formatted):
            if check || diff {
                guard formatted != text else { return ExitStatus.ok.rawValue }
                output.write(
                    check
                        ? "<stdin>\n"
                        : UnifiedDiff.make(old: text, new: formatted, oldName: "<stdin>", newName: "<stdin>")
                )
                return ExitStatus.failure.rawValue
            }
            FileHandle.standardOutput.write(Data(formatted.utf8))
            return ExitStatus.ok.rawValue
        }
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Standard output for names and diffs: what a file holds, made harmless on a terminal.
    private struct Output {
        var sanitized: Bool

        func write(_ text: String) {
            let shown = sanitized ? UnifiedDiff.forTerminal(text) : text
            FileHandle.standardOutput.write(Data(shown.utf8))
        }
    }
}
