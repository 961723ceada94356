/// A whole parsed script: the commands in order.
public struct Script: Sendable, Hashable {
    public var commands: [Command]
    public var range: SourceRange

    public init(commands: [Command], range: SourceRange) {
        self.commands = commands
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

    public init(name: Word, arguments: [Argument], range: SourceRange) {
        self.name = name
        self.arguments = arguments
        self.range = range
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
                return reference.path.isEmpty ? "$\(reference.name)" : "${\(reference.name)\(reference.path)}"
            case .status: return "$?"
            }
        }.joined()
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
