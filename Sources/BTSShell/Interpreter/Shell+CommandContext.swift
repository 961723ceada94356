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

    /// Runs a script file in this session (``ScriptRunner/source(_:shownAs:range:arguments:on:)``).
    func source(_ url: URL, shownAs path: String, range: SourceRange?, arguments: [String]?) async throws {
        try await ScriptRunner.source(url, shownAs: path, range: range, arguments: arguments, on: self)
    }

    /// Runs `text` as commands of this session (``ScriptRunner/runLine(_:name:on:)``).
    func runLine(_ text: String, name: String) async throws -> Int32 {
        try await ScriptRunner.runLine(text, name: name, on: self)
    }
}
