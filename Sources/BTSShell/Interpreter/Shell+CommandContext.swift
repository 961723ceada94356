import BTSLanguage
import BTSTerminal
import BooksTrackContract
import Foundation

/// A session is the context its commands run against.
extension Shell: CommandContext {
    var history: HistoryStore? { options.history }

    var aliases: [String: String] {
        get { state.aliases }
        set { state.aliases = newValue }
    }

    var jobs: SessionJobs {
        get { services.jobs }
        set { services.jobs = newValue }
    }

    var callPolicy: CallPolicy { services.callPolicy }

    var lastSearch: SearchPage? {
        get { state.lastSearch }
        set { state.lastSearch = newValue }
    }

    func requestExit(_ status: Int32) {
        state.exitRequest = status
    }

    var atPrompt: Bool { state.currentSource?.interactive ?? false }

    var commandsComeFromStandardInput: Bool { options.commandsComeFromStandardInput }

    /// A path relative to the running script's directory (or the working directory).
    func resolvePath(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        if path.hasPrefix("~/") {
            let home = options.environment["HOME"] ?? NSHomeDirectory()
            return URL(fileURLWithPath: home).appendingPathComponent(String(path.dropFirst(2)))
        }
        let directory = state.currentSource?.directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return directory.appendingPathComponent(path).standardizedFileURL
    }

    /// Runs a script file in this session: all of it is checked first; a failing command has
    /// already reported itself, so only its status travels up.
    func source(_ url: URL, shownAs path: String, range: SourceRange?, arguments: [String]?) async throws {
        try state.enterNesting(
            ShellError(
                .usage,
                "'source' nested too deeply (\(InterpreterState.maxNesting) levels); is a script sourcing itself?"
            )
        )
        let text: String
        do throws(ScriptFile.Failure) {
            text = try ScriptFile.read(url.path)
        } catch {
            throw ShellError(.usage, error.sentence(path), range: range)
        }
        let script = check(Parser.parse(SourceFile(name: url.path, text: text)))
        if script.diagnostics.containsErrors {
            report(ShellError(diagnostics: script.diagnostics), in: script.source, interactive: false)
            throw ShellError(.usage, "'\(path)' has errors; nothing in it ran")
        }
        state.sourceDepth += 1
        defer { state.sourceDepth -= 1 }
        let inner = SourceContext(source: script.source, directory: url.deletingLastPathComponent(), interactive: false)
        let outer = state.positionalArguments
        if let arguments { state.positionalArguments = arguments }
        defer { state.positionalArguments = outer }
        let status = await execute(script.statements, inner)
        if status != 0, state.exitRequest == nil {
            throw SilentFailure(status: status)
        }
    }
}

/// A failure already reported (by a sourced script's command): only the status travels up.
struct SilentFailure: Error, Sendable {
    var status: Int32
}
