import BTSLanguage
import BTSTerminal
import Foundation

/// The terminal side of the interactive shell, set up in one call: the line reader (libedit on a
/// terminal, plain lines otherwise) with bts's TAB completion, continuation lines for unfinished
/// input, and the persistent history that never records sensitive lines.
///
/// ```swift
/// let history = InteractiveTerminal.makeHistory(environment: environment)
/// let terminal = InteractiveTerminal.make(environment: environment, history: history)
/// let status = await shell.runInteractive(reader: terminal.reader, signals: signals,
///                                         completion: terminal.completion)
/// terminal.history?.flush()
/// ```
package struct InteractiveTerminal: Sendable {
    /// Reads logical lines (continuation lines joined).
    package let reader: any LineReader
    /// `$XDG_STATE_HOME/bts/history` (nil when no home is known or stdin is not a terminal).
    package let history: HistoryStore?
    /// The session snapshot TAB reads; the shell updates it after each command
    /// (``Shell/updateCompletionContext(_:)``).
    package let completion: CompletionContextStore

    package init(reader: any LineReader, history: HistoryStore?, completion: CompletionContextStore) {
        self.reader = reader
        self.history = history
        self.completion = completion
    }

    /// The history filter: the built-in secret rules plus the registry's sensitive commands and
    /// options (`connect …`, `set token …`).
    package static func historyFilter(registry: CommandRegistry = .standard) -> HistoryFilter {
        HistoryFilter(isSensitive: { registry.isSensitive(line: $0) })
    }

    /// The history store at the XDG location, loaded (a disk error leaves it empty and in memory,
    /// see ``HistoryStore/lastError``); nil when there is no home directory.
    package static func makeHistory(
        registry: CommandRegistry = .standard,
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> HistoryStore?
    {
        guard let url = XDGPaths(environment: environment).historyFile else { return nil }
        let store = HistoryStore(fileURL: url, filter: historyFilter(registry: registry))
        _ = try? store.load()
        return store
    }

    /// Everything for an interactive session over `history` (usually ``makeHistory(registry:environment:)``,
    /// created first so the shell's `history` command can list it; nil keeps none).
    package static func make(
        registry: CommandRegistry = .standard,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        history: HistoryStore?
    ) -> InteractiveTerminal {
        var initial = CompletionContext()
        initial.homeDirectory = environment["HOME"]
        let completion = CompletionContextStore(initial)
        let engine = CompletionEngine(registry: registry, context: completion)
        let configuration = LineEditor.Configuration(
            isComplete: { Parser.isComplete($0) },
            completionProvider: engine.provider,
            history: history
        )
        return InteractiveTerminal(
            reader: LineReaderFactory.make(configuration: configuration),
            history: history,
            completion: completion
        )
    }
}
