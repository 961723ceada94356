import BTSLanguage
import BooksTrackContract

/// `alias` (list) · `alias NAME TEXT…` (define) — TEXT runs in place of NAME, its `$1`, `$#`, `$@`
/// reading the call's words (without any, the call's words are appended).
struct AliasCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    /// Changes the session only: no timing line after it (`timing` still shows the last real command).
    static let isMeasured = false

    static let nameArgument = ArgumentSpec("NAME", "The alias", optional: true)
    static let textArgument = ArgumentSpec(
        "TEXT",
        "The commands it stands for ($1…, $#, $@ read the call's words)",
        optional: true,
        variadic: true
    )

    static let configuration = CommandSpec(
        "alias",
        group: .meta,
        summary: "Define a short name for commands; alone, list the aliases",
        discussion: """
            The words of TEXT are kept as written ($-references are read when the alias runs, not when it is \
            defined) and joined with spaces; quote the whole text to keep quotes or ';' inside it. In TEXT, \
            $1..$n, $# and $@ are the words the alias is called with; if TEXT uses none of them, the words are \
            appended. Aliases defined in the rc file ($XDG_CONFIG_HOME/bts/rc.bts) last the whole session.
            """,
        usage: ["alias", "alias NAME TEXT..."],
        positionals: [nameArgument, textArgument],
        examples: ["alias hg search 9780439023481", "alias top 'search title $1 --limit ${2:-3}'", "alias"],
        takesRawArguments: true
    )

    /// The name `command` defines when it is an `alias NAME …` (the lines after it may call it).
    static func definedName(by command: Command) -> String? {
        command.nameText == name ? command.arguments.first?.word.literalText : nil
    }

    /// The text is kept as written.
    static let interpolatesArguments = false

    var words: [Word]

    init(_ resolved: ResolvedCommand) {
        words = resolved.command.arguments.map(\.word)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        guard let nameWord = words.first else {
            let names = context.aliases.keys.sorted()
            let lines = names.map { "alias \($0) \(Self.quoted(context.aliases[$0] ?? ""))" }
            let value = JSONValue.object(context.aliases.mapValues(JSONValue.string))
            return CommandOutput(value: value, view: .text(lines.joined(separator: "\n")), setsResult: false)
        }
        guard let name = nameWord.literalText, Self.isAliasName(name) else {
            throw ShellError(
                .usage,
                "'\(nameWord.sourceForm)' cannot be an alias name (letters, digits, '-' and '_')",
                range: nameWord.range
            )
        }
        if Parser.keywords.contains(name) || CommandRegistry.standard.command(named: name) != nil {
            throw ShellError(
                .usage,
                "'\(name)' is a bts command or keyword; an alias cannot replace it",
                range: nameWord.range
            )
        }
        let text = words.dropFirst().map(\.sourceForm).joined(separator: " ")
        guard !text.isEmpty else {
            guard let body = context.aliases[name] else {
                throw ShellError(.usage, "no alias '\(name)'", range: nameWord.range)
            }
            return CommandOutput(
                value: .string(body),
                view: .text("alias \(name) \(Self.quoted(body))"),
                setsResult: false
            )
        }
        context.aliases[name] = text
        return nil
    }

    static func isAliasName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
        }
    }

    /// Text quoted so that bts reads it back as one word (always in quotes).
    static func quoted(_ text: String) -> String { ScriptWords.quoted(text, bareWhenPlain: false) }
}

/// `unalias NAME…`: forgets aliases.
struct UnaliasCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    /// Changes the session only: no timing line after it (`timing` still shows the last real command).
    static let isMeasured = false

    static let names = ArgumentSpec("NAME", "An alias", variadic: true)

    static let configuration = CommandSpec(
        "unalias",
        group: .meta,
        summary: "Forget aliases",
        positionals: [names],
        examples: ["unalias hg"]
    )

    var names: [BoundValue]

    init(_ resolved: ResolvedCommand) {
        names = resolved.values(Self.names)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        for bound in names {
            let name = bound.text ?? ""
            guard context.aliases.removeValue(forKey: name) != nil else {
                var message = "no alias '\(name)'"
                if let guess = Suggest.closest(to: name, among: context.aliases.keys) {
                    message += " (did you mean '\(guess)'?)"
                }
                throw ShellError(.usage, message, range: bound.word.range)
            }
        }
        return nil
    }
}

extension AliasCommand {
    /// Whether alias text reads the call's words (`$1`…, `$#`, `$@`).
    static func readsArguments(_ text: String) -> Bool {
        let (tokens, _) = Lexer.tokenize(SourceFile(name: "alias", text: text))
        return tokens.contains { token in
            token.word?.parts.contains { part in
                guard case .variable(let reference) = part else { return false }
                return (reference.isPositional && reference.name != "0") || reference.name == "#"
                    || reference.name == "@"
            } ?? false
        }
    }
}
