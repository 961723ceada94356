import BTSLanguage

extension ScriptChecker {
    /// The alias `command` defines (`alias NAME TEXT`), if any: the check knows it from there on.
    package static func alias(definedBy command: Command) -> String? { AliasCommand.definedName(by: command) }

    /// The variable `command` assigns (`set NAME VALUE`), if any.
    package static func variable(assignedBy command: Command) -> String? { SetCommand.assignedVariable(by: command) }
}

extension ScriptChecker {
    /// Whether `name` has an alias name's form (``AliasCommand``: letters, digits, '-' and '_').
    package static func isAliasName(_ name: String) -> Bool { AliasCommand.isAliasName(name) }
}

extension ScriptChecker {
    /// What ``ScriptBindings`` needs to know of the registry: the commands that bind names
    /// (``SetCommand``, ``AliasCommand``, ``UnaliasCommand``) and the settings `set` changes.
    package static func bindingVocabulary(of registry: CommandRegistry) -> ScriptBindings.Vocabulary {
        ScriptBindings.Vocabulary(
            set: SetCommand.name,
            alias: AliasCommand.name,
            unalias: UnaliasCommand.name,
            settingNames: Set(registry.settings.map(\.name))
        )
    }
}
