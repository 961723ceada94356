import BTSLanguage
import Foundation

extension Shell {
    /// Runs `text` as commands of this session (`every`'s line), checked first, as an alias's
    /// text runs (not paged, errors located in the line): a run's errors are reported here and its
    /// status returned; a line with errors throws, having said what is wrong.
    func runLine(_ text: String, name: String) async throws -> Int32 {
        try state.enterNesting(
            ShellError(.usage, "'\(name)' nested too deeply (\(InterpreterState.maxNesting) levels)")
        )
        let script = check(Parser.parse(SourceFile(name: name, text: text)))
        if script.diagnostics.containsErrors {
            report(ShellError(diagnostics: script.diagnostics), in: script.source, interactive: false)
            throw SilentFailure(status: ExitStatus.usage.rawValue)
        }
        state.sourceDepth += 1
        defer { state.sourceDepth -= 1 }
        let outer = state.currentSource
        let inner = SourceContext(
            source: script.source,
            directory: outer?.directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            interactive: false
        )
        return await execute(script.statements, inner)
    }
}
