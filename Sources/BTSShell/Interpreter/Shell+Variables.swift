import BTSLanguage
import BooksTrackContract

extension Shell {
    /// Interpolates every deferred value and checks it against its type (registry's second step).
    func finish(_ resolved: ResolvedCommand) throws(ShellError) -> ResolvedCommand {
        guard resolved.hasDeferredValues else { return resolved }
        var failure: ShellError?
        let scope = self.scope
        let result = registry.finish(resolved) { word in
            switch scope.interpolate(word) {
            case .success(let text): return .success(text)
            case .failure(let error):
                if failure == nil { failure = error }
                return .failure(Diagnostic.error(error.message, at: error.range ?? word.range))
            }
        }
        switch result {
        case .success(let finished): return finished
        case .failure(let diagnostics):
            if let failure { throw failure }
            throw ShellError(diagnostics: diagnostics.all)
        }
    }

    /// What `$…` reads right now.
    var scope: VariableScope {
        VariableScope(
            variables: variables,
            lastResult: lastResult,
            lastStatus: lastStatus,
            scriptName: options.scriptName,
            scriptArguments: state.positionalArguments,
            settingNames: Set(registry.settings.map(\.name)),
            environment: options.environment,
            exchange: lastExchange
        )
    }

    /// The structured value of a word (a lone `${…}` keeps its structure), else its text.
    func value(of word: Word) -> Result<JSONValue, ShellError> {
        scope.value(of: word)
    }
}
