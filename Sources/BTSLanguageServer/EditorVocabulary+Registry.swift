import BTSLanguage
import BTSShell

extension EditorVocabulary {
    /// The names the grammars colour, from the command registry and the language: a new command,
    /// subcommand or setting is coloured without editing a grammar.
    package static var standard: EditorVocabulary {
        let registry = CommandRegistry.standard
        let commands = registry.commands.flatMap { [$0.name] + $0.aliases }
        let subcommands = registry.commands.flatMap { $0.subcommands.flatMap { [$0.name] + $0.aliases } }
        let conditions =
            Expectation.Keyword.allCases.map(\.rawValue) + Expectation.Parenthesis.allCases.map(\.rawValue)
            + Expectation.Operator.allCases.map(\.rawValue)
        return EditorVocabulary(
            commands: commands,
            subcommands: subcommands,
            keywords: Parser.keywords,
            conditionWords: conditions,
            settings: registry.settings.map(\.name)
        )
    }

    /// Every editor file, by its path under the repository's `editors/` folder.
    package static func files(_ vocabulary: EditorVocabulary = .standard) -> [(path: String, text: String)] {
        [
            ("vim/syntax/bts.vim", EditorSyntax.vimSyntax(vocabulary)),
            ("vim/ftdetect/bts.vim", EditorSyntax.vimFiletypeDetection()),
            ("vscode/syntaxes/bts.tmLanguage.json", EditorSyntax.textMateGrammar(vocabulary)),
            ("vscode/package.json", EditorSyntax.vscodePackage()),
            ("vscode/language-configuration.json", EditorSyntax.vscodeLanguageConfiguration()),
        ]
    }
}
