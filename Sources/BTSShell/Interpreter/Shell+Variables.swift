import BTSLanguage
import BooksTrackContract

extension Shell {
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
