/// A whole parsed script: its statements (commands and blocks) in order.
package struct Script: Sendable, Hashable {
    /// The top-level statements; blocks hold their own.
    package var statements: [Statement]
    /// Every simple command in source order, those inside blocks included (not the conditions).
    package var commands: [Command]
    package var range: SourceRange

    package init(statements: [Statement], range: SourceRange) {
        self.statements = statements
        self.commands = statements.flatMap(\.allCommands)
        self.range = range
    }

    package init(commands: [Command], range: SourceRange) {
        self.init(statements: commands.map(Statement.command), range: range)
    }
}

/// One statement: a command, a block, or `break`/`continue`.
package indirect enum Statement: Sendable, Hashable {
    case command(Command)
    /// `for NAME in … end`
    case forLoop(ForLoop)
    /// `while COND … end`
    case whileLoop(WhileLoop)
    /// `if COND … elif COND … else … end`
    case conditional(Conditional)
    /// `break` or `continue` (only inside a loop).
    case loopControl(LoopControl)

    /// The simple commands of this statement and of every nested block, in source order.
    package var allCommands: [Command] {
        switch self {
        case .command(let command): return [command]
        case .forLoop(let loop): return loop.body.flatMap(\.allCommands)
        case .whileLoop(let loop): return loop.body.flatMap(\.allCommands)
        case .conditional(let conditional):
            return conditional.branches.flatMap { $0.body.flatMap(\.allCommands) }
                + (conditional.elseBody ?? []).flatMap(\.allCommands)
        case .loopControl: return []
        }
    }
}

/// `for NAME in WORD… ; … ; end`, `for NAME in lines FILE`, `for NAME in words TEXT…`.
package struct ForLoop: Sendable, Hashable {
    /// What the loop walks over.
    package enum Items: Sendable, Hashable {
        /// Each word; a word that is one variable holding a list gives one item per element.
        case words([Word])
        /// Each line of a file (the word is its path).
        case lines(Word)
        /// Each blank-separated word of the words' text.
        case split([Word])
    }

    package var variable: String
    package var variableRange: SourceRange
    package var items: Items
    package var body: [Statement]
    /// The `for …` header line.
    package var range: SourceRange
    /// The block's `end`; nil when the input ended first (an error: such a script does not run).
    package var end: SourceRange?

    package init(
        variable: String,
        variableRange: SourceRange,
        items: Items,
        body: [Statement],
        range: SourceRange,
        end: SourceRange? = nil
    ) {
        self.variable = variable
        self.variableRange = variableRange
        self.items = items
        self.body = body
        self.range = range
        self.end = end
    }
}

/// `while COND … end`: the body runs while the condition (written as `expect` reads it) holds.
package struct WhileLoop: Sendable, Hashable {
    /// The condition as a command named `while` whose arguments are the condition's words.
    package var condition: Command
    package var body: [Statement]
    /// The block's `end`; nil when the input ended first (an error: such a script does not run).
    package var end: SourceRange?

    package init(condition: Command, body: [Statement], end: SourceRange? = nil) {
        self.condition = condition
        self.body = body
        self.end = end
    }

    /// The `while …` header line.
    package var range: SourceRange { condition.range }
}

/// `if COND … elif COND … else … end`. A condition is written as `expect` reads it.
package struct Conditional: Sendable, Hashable {
    package struct Branch: Sendable, Hashable {
        /// The condition as a command named `if`/`elif` whose arguments are the condition's words.
        package var condition: Command
        package var body: [Statement]

        package init(condition: Command, body: [Statement]) {
            self.condition = condition
            self.body = body
        }
    }

    package var branches: [Branch]
    package var elseBody: [Statement]?
    /// The block's `end`; nil when the input ended first (an error: such a script does not run).
    package var end: SourceRange?

    package init(branches: [Branch], elseBody: [Statement]?, end: SourceRange? = nil) {
        self.branches = branches
        self.elseBody = elseBody
        self.end = end
    }
}

/// `break` or `continue`.
package struct LoopControl: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable { case `break`, `continue` }
    package var kind: Kind
    package var range: SourceRange

    package init(kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

/// Where a command's rendered output goes instead of stdout.
package struct Redirection: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// `> FILE`
        case write(Word)
        /// `>> FILE`
        case append(Word)
        /// `| shell pipeline` (the raw text after `|`, run by `/bin/sh -c`).
        case pipe(String)
    }

    package var kind: Kind
    /// From `>`/`|` to the end of the target.
    package var range: SourceRange

    package init(kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

/// One command: a name word followed by arguments.
package struct Command: Sendable, Hashable {
    /// The command name (a word without variables).
    package var name: Word
    package var arguments: [Argument]
    /// From the start of the name to the end of the last argument.
    package var range: SourceRange
    /// `> FILE`, `>> FILE` or `| pipeline` after the arguments.
    package var redirection: Redirection?

    package init(name: Word, arguments: [Argument], range: SourceRange, redirection: Redirection? = nil) {
        self.name = name
        self.arguments = arguments
        self.range = range
        self.redirection = redirection
    }

    /// The command name as text.
    package var nameText: String { name.literalText ?? "" }
}

/// One argument of a command, classified syntactically. The meaning of options is left to the registry.
package struct Argument: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// A plain word (including quoted words that start with `-`, and words after `--`).
        case positional
        /// `--name`, `--name=value` or `-x`.
        case option(OptionSyntax)
        /// A bare `--`: every later word is positional.
        case endOfOptions
    }

    /// The original word, whatever its kind.
    package var word: Word
    package var kind: Kind

    package init(word: Word, kind: Kind) {
        self.word = word
        self.kind = kind
    }

    package var range: SourceRange { word.range }

    /// The option syntax, if this argument is an option.
    package var option: OptionSyntax? {
        if case .option(let option) = kind { return option }
        return nil
    }
}

/// An option as written: `--limit`, `--limit=5`, `-n`.
package struct OptionSyntax: Sendable, Hashable {
    /// The name without dashes (`limit`, `n`).
    package var name: String
    /// `true` for `--name`, `false` for `-x`.
    package var isLong: Bool
    /// The range of the dashes and name (without `=value`).
    package var nameRange: SourceRange
    /// The value given with `=`, if any.
    package var value: Word?

    package init(name: String, isLong: Bool, nameRange: SourceRange, value: Word? = nil) {
        self.name = name
        self.isLong = isLong
        self.nameRange = nameRange
        self.value = value
    }

    /// The option as spelled, e.g. `--limit` or `-n`.
    package var spelling: String { (isLong ? "--" : "-") + name }
}

/// A word: a sequence of literal text, variable references and `$?`.
package struct Word: Sendable, Hashable {
    package var parts: [WordPart]
    package var range: SourceRange

    package init(parts: [WordPart], range: SourceRange) {
        self.parts = parts
        self.range = range
    }

    /// A word of one literal (handy for tests and synthesized words).
    package init(literal text: String, range: SourceRange, isQuoted: Bool = false) {
        self.init(parts: [.literal(text, range: range, isQuoted: isQuoted)], range: range)
    }

    /// The text if the word is purely literal (no variables), else nil.
    package var literalText: String? {
        var text = ""
        for part in parts {
            guard case .literal(let literal, _, _) = part else { return nil }
            text += literal
        }
        return text
    }

    /// Whether the word contains `$var`, `${…}` or `$?` (its value is known only when interpolated).
    package var hasInterpolation: Bool { literalText == nil }

    /// Whether any part came from quotes.
    package var isQuoted: Bool {
        parts.contains { part in
            if case .literal(_, _, true) = part { return true }
            return false
        }
    }

    /// The word's text with every variable written back in `${name.path}` form (for messages).
    package var sourceForm: String {
        parts.map { part in
            switch part {
            case .literal(let text, _, _): return text
            case .variable(let reference):
                if let fallback = reference.fallback { return "${\(reference.name)\(reference.path):-\(fallback)}" }
                return reference.path.isEmpty ? "$\(reference.name)" : "${\(reference.name)\(reference.path)}"
            case .status: return "$?"
            }
        }.joined()
    }

    /// The reference when the word is exactly one variable that expands to several words:
    /// `$@` or a path with `[*]` (`${_.results[*].isbn}`), quoted or not.
    package var listReference: VariableReference? {
        guard parts.count == 1, case .variable(let reference) = parts[0], reference.isList else { return nil }
        return reference
    }

    /// Interpolates the word: literal parts are kept, references are replaced by `value(_:)`.
    package func interpolated(_ value: (WordPart) throws -> String) rethrows -> String {
        try parts.map { part in
            if case .literal(let text, _, _) = part { return text }
            return try value(part)
        }.joined()
    }
}

/// A piece of a word.
package enum WordPart: Sendable, Hashable {
    /// Literal text after quote removal and escapes; `isQuoted` when it came from quotes.
    case literal(String, range: SourceRange, isQuoted: Bool)
    /// `$name`, `${name}`, `${name.path[0]}`, `$1`, `$_`.
    case variable(VariableReference)
    /// `$?`: the last exit status.
    case status(range: SourceRange)

    package var range: SourceRange {
        switch self {
        case .literal(_, let range, _): return range
        case .variable(let reference): return reference.range
        case .status(let range): return range
        }
    }
}
