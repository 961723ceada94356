/// Editor support for `.bts` scripts: a Vim syntax and filetype detection (EditorSyntax+Vim), a
/// TextMate grammar and a VS Code extension (EditorSyntax+VSCode). Each text depends only on the
/// vocabulary's names, taken sorted and without duplicates, so the same registry always gives the
/// same files; what both editors share is here: the words with a place of their own in the
/// language, and the vocabulary split by how each name is highlighted.
package enum EditorSyntax {
    /// The words of a `for` head after the loop variable: `in`, then `lines` or `words`.
    static let loopWords = ["in", "lines", "words"]
    /// Keywords and commands whose words are a condition (`>` there is a comparison).
    static let conditionKeywords = ["elif", "if", "while"]
    static let conditionCommands = ["expect"]

    /// The vocabulary split by how each name is highlighted.
    struct Plan {
        var commands: [String]
        var subcommands: [String]
        var settings: [String]
        var conditionWords: [String]
        var conditionKeywords: [String]
        var conditionCommands: [String]
        var otherKeywords: [String]
        var hasFor: Bool
        var hasSet: Bool

        init(_ v: EditorVocabulary) {
            func clean(_ names: [String]) -> [String] { Array(Set(names.filter { !$0.isEmpty })).sorted() }
            let commands = clean(v.commands)
            let keywords = clean(v.keywords)
            hasSet = commands.contains("set")
            conditionCommands = commands.filter(EditorSyntax.conditionCommands.contains)
            self.commands = commands.filter { $0 != "set" && !EditorSyntax.conditionCommands.contains($0) }
            subcommands = clean(v.subcommands)
            settings = clean(v.settings)
            conditionWords = clean(v.conditionWords)
            conditionKeywords = keywords.filter(EditorSyntax.conditionKeywords.contains)
            hasFor = keywords.contains("for")
            otherKeywords = keywords.filter {
                $0 != "for" && !EditorSyntax.conditionKeywords.contains($0) && !EditorSyntax.loopWords.contains($0)
            }
        }
    }
}
