import BTSLanguage

/// An alias call made text: the alias's body with the call's words as `$1..$n`, or, when the body
/// reads none of them, appended to it. Pure: the words come from `scope`.
struct AliasCall: Sendable, Equatable {
    /// The text that runs in place of the call.
    var text: String
    /// The call's words, when the body reads `$1..$n` (they are its positional arguments
    /// meanwhile); nil when they were appended.
    var positionalArguments: [String]?

    init(body: String, arguments: [Argument], scope: VariableScope) throws(ShellError) {
        var words: [String] = []
        // Appended as written: a bare word stays bare, so an option given to the alias
        // (`hg --limit 1`) is an option (quoted, it would be searched for as a title word); a
        // quoted word, or a variable's value, stays one quoted word.
        var appended: [String] = []
        for argument in arguments {
            switch scope.words(of: argument.word) {
            case .success(let found):
                words += found
                let plain = argument.word.literalText != nil && !argument.word.isQuoted
                appended += found.map { plain ? ScriptWords.quoted($0) : AliasCommand.quoted($0) }
            case .failure(let error): throw error
            }
        }
        let readsArguments = AliasCommand.readsArguments(body)
        var text = body
        if !readsArguments, !appended.isEmpty {
            text += " " + appended.joined(separator: " ")
        }
        self.text = text
        self.positionalArguments = readsArguments ? words : nil
    }
}
