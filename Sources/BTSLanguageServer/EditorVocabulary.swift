/// The names a grammar needs, from the command registry (the caller fills it).
package struct EditorVocabulary: Sendable {
    /// Top-level command names, aliases included (`search`, `library`, `set`, `expect`, …).
    package var commands: [String]
    /// Subcommand names (`isbn`, `title`, `list`, …), highlighted right after a command name.
    package var subcommands: [String]
    /// Block keywords (`for`, `while`, `if`, `elif`, `else`, `end`, `break`, `continue`).
    package var keywords: [String]
    /// The words and operators of a condition (`not`, `exists`, `count`, `==`, `>=`, …).
    package var conditionWords: [String]
    /// The setting names `set` takes (`output`, `color`, `looplimit`, …).
    package var settings: [String]

    package init(
        commands: [String],
        subcommands: [String],
        keywords: [String],
        conditionWords: [String],
        settings: [String]
    ) {
        self.commands = commands
        self.subcommands = subcommands
        self.keywords = keywords
        self.conditionWords = conditionWords
        self.settings = settings
    }
}
