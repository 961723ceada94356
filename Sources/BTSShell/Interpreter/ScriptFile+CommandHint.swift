import Foundation

extension ScriptFile {
    /// `bts search dune` names a command, not a script: when no file `url` exists and `word` (the
    /// script's name as given) is a command's name, the hint says how to run it
    /// (`bts -c 'search dune'`).
    static func commandHint(
        for url: URL,
        word: String,
        arguments: [String],
        registry: CommandRegistry
    ) -> [String] {
        guard !FileManager.default.fileExists(atPath: url.path), !word.contains("/"),
            registry.command(named: word) != nil
        else { return [] }
        let line = ScriptWords.line([word] + arguments)
        return ["'\(word)' is a bts command: to run it, say bts -c \(ScriptWords.posixQuoted(line))"]
    }
}
