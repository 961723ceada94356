import BTSLanguage
import BooksTrackContract

/// A resolved command's words as this scope reads them: the registry's second step (deferred
/// values interpolated and checked) and lists spread into words. Pure.
extension VariableScope {
    /// Interpolates every deferred value of `resolved` and checks it against its type.
    func finishing(_ resolved: ResolvedCommand, registry: CommandRegistry) throws(ShellError) -> ResolvedCommand {
        guard resolved.hasDeferredValues else { return resolved }
        var failure: ShellError?
        let result = registry.finish(resolved) { word in
            switch interpolate(word) {
            case .success(let text): return .success(text)
            case .failure(let error):
                if failure == nil { failure = error }
                return .failure(Diagnostic.error(error.message, rule: .invalidValue, at: error.range ?? word.range))
            }
        }
        switch result {
        case .success(let finished): return finished
        case .failure(let diagnostics):
            if let failure { throw failure }
            throw ShellError(diagnostics: diagnostics.all)
        }
    }

    /// A command whose words include a list (`${…[*]…}`, `$@`) where it takes several words: the
    /// lists become one word each per element, and the command is resolved again.
    func expandingLists(_ resolved: ResolvedCommand, registry: CommandRegistry) throws(ShellError) -> ResolvedCommand {
        let command = resolved.command
        guard command.arguments.contains(where: { $0.word.listReference != nil }),
            resolved.spec.takesRawArguments || resolved.spec.positionals.contains(where: \.isVariadic)
        else { return resolved }
        var arguments: [Argument] = []
        for argument in command.arguments {
            guard argument.word.listReference != nil else {
                arguments.append(argument)
                continue
            }
            let spread: [String]
            switch words(of: argument.word) {
            case .success(let found): spread = found
            case .failure(let error): throw error
            }
            for text in spread {
                arguments.append(
                    Argument(
                        word: Word(literal: text, range: argument.word.range, isQuoted: true),
                        kind: .positional
                    )
                )
            }
        }
        var expanded = command
        expanded.arguments = arguments
        switch registry.resolve(expanded) {
        case .success(let again): return again
        case .failure(let diagnostics): throw ShellError(diagnostics: diagnostics.all)
        }
    }
}
