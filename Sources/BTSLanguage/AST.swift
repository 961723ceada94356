/// A whole parsed script: its statements (commands and blocks) in order.
public struct Script: Sendable, Hashable {
    /// The top-level statements; blocks hold their own.
    public var statements: [Statement]
    /// Every simple command in source order, those inside blocks included (not the conditions).
    public var commands: [Command]
    public var range: SourceRange

    public init(statements: [Statement], range: SourceRange) {
        self.statements = statements
        self.commands = statements.flatMap(\.allCommands)
        self.range = range
    }

    public init(commands: [Command], range: SourceRange) {
        self.init(statements: commands.map(Statement.command), range: range)
    }
}

/// One statement: a command, a block, or `break`/`continue`.
public indirect enum Statement: Sendable, Hashable {
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
    public var allCommands: [Command] {
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
public struct ForLoop: Sendable, Hashable {
    /// What the loop walks over.
    public enum Items: Sendable, Hashable {
        /// Each word; a word that is one variable holding a list gives one item per element.
        case words([Word])
        /// Each line of a file (the word is its path).
        case lines(Word)
        /// Each blank-separated word of the words' text.
        case split([Word])
    }

    public var variable: String
    public var variableRange: SourceRange
    public var items: Items
    public var body: [Statement]
    /// The `for …` header line.
    public var range: SourceRange
    /// The block's `end`; nil when the input ended first (an error: such a script does not run).
    public var end: SourceRange?

    public init(variable: String, variableRange: SourceRange, items: Items, body: [Statement], range: SourceRange,
                end: SourceRange? = nil) {
        self.variable = variable
        self.variableRange = variableRange
        self.items = items
        self.body = body
        self.range = range
        self.end = end
    }
}

/// `while COND … end`: the body runs while the condition (written as `expect` reads it) holds.
public struct WhileLoop: Sendable, Hashable {
    /// The condition as a command named `while` whose arguments are the condition's words.
    public var condition: Command
    public var body: [Statement]
    /// The block's `end`; nil when the input ended first (an error: such a script does not run).
    public var end: SourceRange?

    public init(condition: Command, body: [Statement], end: SourceRange? = nil) {
        self.condition = condition
        self.body = body
        self.end = end
    }

    /// The `while …` header line.
    public var range: SourceRange { condition.range }
}

/// `if COND … elif COND … else … end`. A condition is written as `expect` reads it.
public struct Conditional: Sendable, Hashable {
    public struct Branch: Sendable, Hashable {
        /// The condition as a command named `if`/`elif` whose arguments are the condition's words.
        public var condition: Command
        public var body: [Statement]

        public init(condition: Command, body: [Statement]) {
            self.condition = condition
            self.body = body
        }
    }

    public var branches: [Branch]
    public var elseBody: [Statement]?
    /// The block's `end`; nil when the input ended first (an error: such a script does not run).
    public var end: SourceRange?

    public init(branches: [Branch], elseBody: [Statement]?, end: SourceRange? = nil) {
        self.branches = branches
        self.elseBody = elseBody
        self.end = end
    }
}

/// `break` or `continue`.
public struct LoopControl: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case `break`, `continue` }
    public var kind: Kind
    public var range: SourceRange

    public init(kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

/// Where a command's rendered output goes instead of stdout.
public struct Redirection: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `> FILE`
        case write(Word)
        /// `>> FILE`
        case append(Word)
        /// `| shell pipeline` (the raw text after `|`, run by `/bin/sh -c`).
        case pipe(String)
    }

    public var kind: Kind
    /// From `>`/`|` to the end of the target.
    public var range: SourceRange

    public init(kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

/// One command: a name word followed by arguments.
public struct Command: Sendable, Hashable {
    /// The command name (a word without variables).
    public var name: Word
    public var arguments: [Argument]
    /// From the start of the name to the end of the last argument.
    public var range: SourceRange
    /// `> FILE`, `>> FILE` or `| pipeline` after the arguments.
    public var redirection: Redirection?

    public init(name: Word, arguments: [Argument], range: SourceRange, redirection: Redirection? = nil) {
        self.name = name
        self.arguments = arguments
        self.range = range
        self.redirection = redirection
    }

    /// The command name as text.
    public var nameText: String { name.literalText ?? "" }
}

/// One argument of a command, classified syntactically. The meaning of options is left to the registry.
public struct Argument: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A plain word (including quoted words that start with `-`, and words after `--`).
        case positional
        /// `--name`, `--name=value` or `-x`.
        case option(OptionSyntax)
        /// A bare `--`: every later word is positional.
        case endOfOptions
    }

    /// The original word, whatever its kind.
    public var word: Word
    public var kind: Kind

    public init(word: Word, kind: Kind) {
        self.word = word
        self.kind = kind
    }

    public var range: SourceRange { word.range }

    /// The option syntax, if this argument is an option.
    public var option: OptionSyntax? {
        if case .option(let option) = kind { return option }
        return nil
    }
}

/// An option as written: `--limit`, `--limit=5`, `-n`.
public struct OptionSyntax: Sendable, Hashable {
    /// The name without dashes (`limit`, `n`).
    public var name: String
    /// `true` for `--name`, `false` for `-x`.
    public var isLong: Bool
    /// The range of the dashes and name (without `=value`).
    public var nameRange: SourceRange
    /// The value given with `=`, if any.
    public var value: Word?

    public init(name: String, isLong: Bool, nameRange: SourceRange, value: Word? = nil) {
        self.name = name
        self.isLong = isLong
        self.nameRange = nameRange
        self.value = value
    }

    /// The option as spelled, e.g. `--limit` or `-n`.
    public var spelling: String { (isLong ? "--" : "-") + name }
}

/// A word: a sequence of literal text, variable references and `$?`.
public struct Word: Sendable, Hashable {
    public var parts: [WordPart]
    public var range: SourceRange

    public init(parts: [WordPart], range: SourceRange) {
        self.parts = parts
        self.range = range
    }

    /// A word of one literal (handy for tests and synthesized words).
    public init(literal text: String, range: SourceRange, isQuoted: Bool = false) {
        self.init(parts: [.literal(text, range: range, isQuoted: isQuoted)], range: range)
    }

    /// The text if the word is purely literal (no variables), else nil.
    public var literalText: String? {
        var text = ""
        for part in parts {
            guard case .literal(let literal, _, _) = part else { return nil }
            text += literal
        }
        return text
    }

    /// Whether the word contains `$var`, `${…}` or `$?` (its value is known only when interpolated).
    public var hasInterpolation: Bool { literalText == nil }

    /// Whether any part came from quotes.
    public var isQuoted: Bool {
        parts.contains { part in
            if case .literal(_, _, true) = part { return true }
            return false
        }
    }

    /// The word's text with every variable written back in `${name.path}` form (for messages).
    public var sourceForm: String {
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
    public var listReference: VariableReference? {
        guard parts.count == 1, case .variable(let reference) = parts[0], reference.isList else { return nil }
        return reference
    }

    /// Interpolates the word: literal parts are kept, references are replaced by `value(_:)`.
    public func interpolated(_ value: (WordPart) throws -> String) rethrows -> String {
        try parts.map { part in
            if case .literal(let text, _, _) = part { return text }
            return try value(part)
        }.joined()
    }
}

/// A piece of a word.
public enum WordPart: Sendable, Hashable {
    /// Literal text after quote removal and escapes; `isQuoted` when it came from quotes.
    case literal(String, range: SourceRange, isQuoted: Bool)
    /// `$name`, `${name}`, `${name.path[0]}`, `$1`, `$_`.
    case variable(VariableReference)
    /// `$?`: the last exit status.
    case status(range: SourceRange)

    public var range: SourceRange {
        switch self {
        case .literal(_, let range, _): return range
        case .variable(let reference): return reference.range
        case .status(let range): return range
        }
    }
}
