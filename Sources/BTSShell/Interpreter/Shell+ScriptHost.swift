import BTSLanguage

/// A session is the host its scripts, blocks and aliases run in (``ScriptRunner``).
extension Shell: ScriptHost {
    /// The checker of this session: its registry and the aliases defined so far (``ScriptChecker``);
    /// each command is resolved there, once (it runs as resolved).
    var checker: ScriptChecker { ScriptChecker(registry: registry, aliases: Set(state.aliases.keys)) }

    /// Evaluates an `if`/`elif`/`while` condition as `expect` does.
    func holds(_ condition: Command) throws(ShellError) -> Bool {
        let words = condition.arguments.map(\.word)
        return try ExpectCommand.evaluate(words, what: condition.nameText, range: condition.range, in: self).passed
    }
}
