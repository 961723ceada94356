import ArgumentParser
import BTSShell
import Foundation

/// A subcommand of the executable that runs on its own, outside the shell: `bts serve`, `bts test`,
/// `bts check`, `bts fmt`, `bts lsp` and the hidden data builders. Each is found by its type's `commandName` (the one statement of its
/// name) and parsed as itself: through the root, the root's FILE.bts argument would take the name
/// for a script.
protocol StandaloneCommand: ParsableCommand {
    /// Runs with the arguments after the command's name; returns the exit status. Throws what the
    /// argument parser throws (a usage error, a help request).
    static func start(_ arguments: [String]) async throws -> Int32
    /// Whether it handles SIGINT, SIGTERM and SIGHUP itself (a `SignalWatcher`): they are then blocked
    /// on the main thread before it starts, so that none is lost.
    static var watchesSignals: Bool { get }
}

extension StandaloneCommand {
    /// The command's name, from its configuration.
    static var name: String { configuration.commandName ?? "" }

    /// The argument parser's error as ``ParsableCommand/exitStatus(reporting:)`` says it, its
    /// "See 'NAME --help'" naming the command as it is typed: `bts NAME` (parsed on its own, the
    /// command does not know it is bts's).
    static func exitStatusAsSubcommand(reporting error: any Error) -> Int32 {
        exitStatus(reporting: error, rewriting: ("See '\(name) --help'", "See 'bts \(name) --help'"))
    }

    static var watchesSignals: Bool { false }
}

enum StandaloneCommands {
    /// Every standalone command.
    static let all: [any StandaloneCommand.Type] = [
        ServeCommand.self, TestCommand.self, CheckCommand.self, FormatCommand.self, LanguageServerCommand.self,
        CatalogCleanCommand.self, ShelvesCleanCommand.self, BookVectorsCommand.self,
    ]

    /// The standalone command a command line names with its first word.
    static func named(_ word: String?) -> (any StandaloneCommand.Type)? {
        guard let word else { return nil }
        return all.first { $0.name == word }
    }
}

extension ParsableCommand {
    /// The argument parser's error (or help request) as this command says it: help and the version
    /// on stdout with status 0, anything else on stderr, a usage error with status 2 (docs/usage.md)
    /// instead of the parser's 64.
    static func exitStatus(reporting error: any Error, rewriting: (String, String)? = nil) -> Int32 {
        let code = exitCode(for: error)
        var message = fullMessage(for: error)
        if let (old, new) = rewriting { message = message.replacingOccurrences(of: old, with: new) }
        if code == .success {
            if !message.isEmpty { print(message) }
            return 0
        }
        FileHandle.standardError.write(Data((message.isEmpty ? "bts: error" : message).utf8 + [10]))
        return code == .validationFailure ? ExitStatus.usage.rawValue : code.rawValue
    }
}
