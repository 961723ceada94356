/// Turns the simple commands of a script, in order, into statements with nested blocks: a pure
/// state machine over keyword commands (`for`, `while`, `if`, `elif`, `else`, `end`, `break`,
/// `continue`).
/// Every misplaced keyword is a diagnostic; parsing carries on so one run reports them all. A
/// block whose header has errors, or that is never closed, still hands its body on (the block
/// itself dropped, or kept without an `end`), so the whole-script check sees every command in it;
/// the error already said keeps such a script from running.
struct BlockBuilder {
    private struct Frame {
        enum Kind { case loop, conditional }
        var kind: Kind
        /// The opening keyword's command (`for x in …`, `if …`).
        var opener: Word
        /// nil when the header had errors: the block is matched with its `end` but dropped.
        var loop: (variable: String, range: SourceRange, items: ForLoop.Items, header: SourceRange)?
        var branches: [Conditional.Branch] = []
        /// The condition of the branch being read (`if`/`elif`), or of a `while` loop.
        var condition: Command?
        var body: [Statement] = []
        var elseBody: [Statement]?
        var isValid: Bool
    }

    /// How deep blocks may nest. The checker and the interpreter walk blocks recursively: about
    /// 3,600 levels overflowed the stack (SIGSEGV); a script needs a handful.
    static let maxDepth = 100

    private(set) var statements: [Statement] = []
    private var stack: [Frame] = []
    /// How many frames of `stack` are loops (`break` checks it at once, however deep the stack).
    private var openLoops = 0
    private var reportedDepth = false
    /// The blocks opened past `maxDepth`: matched with their `end` and dropped with everything in
    /// them, so only what the keywords check is kept (a whole frame each would make deep junk slow
    /// to check).
    private var dropped: [(kind: Frame.Kind, hasElse: Bool)] = []

    /// Opens a block; one nested deeper than `maxDepth` is matched with its `end` but dropped
    /// (with everything inside it), and said once.
    private mutating func open(_ frame: Frame, _ diagnostics: inout [Diagnostic]) {
        if frame.kind == .loop { openLoops += 1 }
        if stack.count >= Self.maxDepth {
            if !reportedDepth {
                reportedDepth = true
                diagnostics.append(
                    .error(
                        "blocks are nested more than \(Self.maxDepth) deep",
                        rule: .nestingTooDeep,
                        at: frame.opener.range,
                        notes: [Diagnostic.Note("move the inner blocks into a script of their own and 'source' it")]
                    )
                )
            }
            dropped.append((frame.kind, false))
            return
        }
        stack.append(frame)
    }

    private mutating func append(_ statement: Statement) {
        guard dropped.isEmpty else { return }
        guard !stack.isEmpty else {
            statements.append(statement)
            return
        }
        if stack[stack.count - 1].elseBody != nil {
            stack[stack.count - 1].elseBody?.append(statement)
        } else {
            stack[stack.count - 1].body.append(statement)
        }
    }

    private static func keyword(_ word: Word) -> String? {
        guard !word.isQuoted, let text = word.literalText, Parser.keywords.contains(text) else { return nil }
        return text
    }

    /// Adds one simple command (its words, the pipe after it if any).
    mutating func add(
        _ words: [Word],
        pipe: (text: String, range: SourceRange)?,
        erroneous: Bool,
        _ diagnostics: inout [Diagnostic]
    ) {
        guard let name = words.first else { return }
        guard let keyword = Self.keyword(name) else {
            if !erroneous, let command = Parser.buildCommand(words, pipe: pipe, &diagnostics) {
                append(.command(command))
            }
            return
        }
        if let pipe {
            diagnostics.append(
                .error(
                    "'\(keyword)' cannot be piped; pipe the commands inside the block",
                    rule: .badPipe,
                    at: pipe.range
                )
            )
        }
        let arguments = Array(words.dropFirst())
        let whole = name.range.union(words.last?.range ?? name.range)
        switch keyword {
        case "for":
            var frame = Frame(kind: .loop, opener: name, isValid: false)
            if !erroneous, let header = Self.loopHeader(name, arguments, &diagnostics) {
                frame.loop = (header.variable, header.range, header.items, whole)
                frame.isValid = true
            }
            open(frame, &diagnostics)
        case "while", "if":
            let example =
                keyword == "while"
                ? "e.g. 'while ${_.count} == 20' or 'while $i < 10'"
                : "e.g. 'if ${_.totalCount} > 0' or 'if $? != 0'"
            var frame = Frame(kind: keyword == "while" ? .loop : .conditional, opener: name, isValid: !erroneous)
            if arguments.isEmpty {
                diagnostics.append(
                    .error(
                        "missing condition after '\(keyword)'",
                        rule: .badCondition,
                        at: SourceRange(offset: name.range.end, length: 0),
                        notes: [Diagnostic.Note(example)]
                    )
                )
                frame.isValid = false
            }
            frame.condition = Self.condition(name, arguments, whole)
            open(frame, &diagnostics)
        case "elif":
            if let top = dropped.last {
                if top.kind != .conditional {
                    diagnostics.append(.error("'elif' without an open 'if'", rule: .misplacedBranch, at: name.range))
                } else if top.hasElse {
                    diagnostics.append(.error("'elif' after 'else'", rule: .misplacedBranch, at: name.range))
                }
                return
            }
            guard let top = stack.last, top.kind == .conditional else {
                diagnostics.append(.error("'elif' without an open 'if'", rule: .misplacedBranch, at: name.range))
                return
            }
            guard top.elseBody == nil else {
                diagnostics.append(
                    .error(
                        "'elif' after 'else'",
                        rule: .misplacedBranch,
                        at: name.range,
                        notes: [Diagnostic.Note("'else' is here; it must be the last branch")]
                    )
                )
                return
            }
            if arguments.isEmpty {
                diagnostics.append(
                    .error(
                        "missing condition after 'elif'",
                        rule: .badCondition,
                        at: SourceRange(offset: name.range.end, length: 0)
                    )
                )
                stack[stack.count - 1].isValid = false
            }
            if erroneous { stack[stack.count - 1].isValid = false }
            closeBranch()
            stack[stack.count - 1].condition = Self.condition(name, arguments, whole)
        case "else":
            if let top = dropped.last {
                if top.kind != .conditional {
                    diagnostics.append(.error("'else' without an open 'if'", rule: .misplacedBranch, at: name.range))
                } else if top.hasElse {
                    diagnostics.append(
                        .error("a second 'else' in the same 'if'", rule: .misplacedBranch, at: name.range)
                    )
                } else {
                    dropped[dropped.count - 1].hasElse = true
                }
                return
            }
            guard let top = stack.last, top.kind == .conditional else {
                diagnostics.append(.error("'else' without an open 'if'", rule: .misplacedBranch, at: name.range))
                return
            }
            if let extra = arguments.first, let last = arguments.last {
                diagnostics.append(
                    .error(
                        "'else' takes no condition (did you mean 'elif'?)",
                        rule: .extraArgument,
                        at: extra.range.union(last.range),
                        fixIt: Diagnostic.FixIt(range: name.range, replacement: "elif")
                    )
                )
                stack[stack.count - 1].isValid = false
            }
            guard top.elseBody == nil else {
                diagnostics.append(.error("a second 'else' in the same 'if'", rule: .misplacedBranch, at: name.range))
                return
            }
            closeBranch()
            stack[stack.count - 1].elseBody = []
        case "end":
            if let extra = arguments.first, let last = arguments.last {
                diagnostics.append(
                    .error("'end' takes no arguments", rule: .extraArgument, at: extra.range.union(last.range))
                )
            }
            if let top = dropped.popLast() {
                if top.kind == .loop { openLoops -= 1 }
                return
            }
            guard let frame = stack.popLast() else {
                diagnostics.append(
                    .error(
                        "'end' without an open block",
                        rule: .strayEnd,
                        at: name.range,
                        notes: [Diagnostic.Note("blocks start with 'for', 'while' or 'if'")]
                    )
                )
                return
            }
            if frame.kind == .loop { openLoops -= 1 }
            close(frame, end: name.range)
        default:  // break, continue
            if let extra = arguments.first, let last = arguments.last {
                diagnostics.append(
                    .error("'\(keyword)' takes no arguments", rule: .extraArgument, at: extra.range.union(last.range))
                )
                return
            }
            guard openLoops > 0 else {
                diagnostics.append(
                    .error(
                        "'\(keyword)' outside a loop",
                        rule: .outsideLoop,
                        at: name.range,
                        notes: [Diagnostic.Note("'\(keyword)' works inside 'for … end' and 'while … end'")]
                    )
                )
                return
            }
            append(.loopControl(LoopControl(kind: keyword == "break" ? .break : .continue, range: name.range)))
        }
    }

    /// Reports every block still open at the end of the input (the REPL reads more lines), unless
    /// blocks are nested too deep: that error says it, and no more input can make them run (a
    /// reader that parsed the growing text again at each line would take quadratic time).
    mutating func finish(_ diagnostics: inout [Diagnostic]) {
        defer {
            stack.removeAll()
            dropped.removeAll()
            openLoops = 0
        }
        guard !reportedDepth else { return }
        while let frame = stack.popLast() {
            let keyword = frame.opener.literalText ?? "block"
            diagnostics.append(
                Diagnostic(
                    .error,
                    "unclosed '\(keyword)' block: expected 'end'",
                    rule: .unclosedBlock,
                    range: frame.opener.range,
                    notes: [Diagnostic.Note("the block starts here and runs to the end of the input")],
                    isIncompleteInput: true
                )
            )
            close(frame, end: nil)
        }
    }

    /// Hands a block that ended (at `end`, or at the end of the input when nil) to the block
    /// around it: as a statement when its header was sound, else its body's statements alone.
    private mutating func close(_ frame: Frame, end: SourceRange?) {
        if let statement = Self.statement(of: frame, end: end) {
            append(statement)
            return
        }
        for statement in frame.branches.flatMap(\.body) + frame.body + (frame.elseBody ?? []) {
            append(statement)
        }
    }

    private mutating func closeBranch() {
        let index = stack.count - 1
        if let condition = stack[index].condition {
            stack[index].branches.append(Conditional.Branch(condition: condition, body: stack[index].body))
        }
        stack[index].condition = nil
        stack[index].body = []
    }

    private static func statement(of frame: Frame, end: SourceRange?) -> Statement? {
        guard frame.isValid else { return nil }
        switch frame.kind {
        case .loop:
            if let condition = frame.condition {
                return .whileLoop(WhileLoop(condition: condition, body: frame.body, end: end))
            }
            guard let loop = frame.loop else { return nil }
            return .forLoop(
                ForLoop(
                    variable: loop.variable,
                    variableRange: loop.range,
                    items: loop.items,
                    body: frame.body,
                    range: loop.header,
                    end: end
                )
            )
        case .conditional:
            var branches = frame.branches
            if let condition = frame.condition {
                branches.append(Conditional.Branch(condition: condition, body: frame.body))
            }
            return .conditional(Conditional(branches: branches, elseBody: frame.elseBody, end: end))
        }
    }

    /// A condition as a command named `if`/`elif` whose arguments are all positional.
    private static func condition(_ name: Word, _ words: [Word], _ range: SourceRange) -> Command {
        Command(name: name, arguments: words.map { Argument(word: $0, kind: .positional) }, range: range)
    }

    /// `for NAME in WORD…`, `for NAME in lines FILE`, `for NAME in words TEXT…`.
    private static func loopHeader(
        _ keyword: Word,
        _ words: [Word],
        _ diagnostics: inout [Diagnostic]
    )
        -> (variable: String, range: SourceRange, items: ForLoop.Items)?
    {
        let usage = Diagnostic.Note("usage: for NAME in WORD… | for NAME in lines FILE | for NAME in words TEXT…")
        guard let variable = words.first else {
            diagnostics.append(
                .error(
                    "missing loop variable after 'for'",
                    rule: .badLoop,
                    at: SourceRange(offset: keyword.range.end, length: 0),
                    notes: [usage]
                )
            )
            return nil
        }
        guard let name = variable.literalText, !variable.isQuoted, Parser.isVariableName(name) else {
            diagnostics.append(
                .error(
                    "'\(variable.sourceForm)' is not a variable name",
                    rule: .badVariableName,
                    at: variable.range,
                    notes: [Diagnostic.Note("write the name without '$': 'for book in …' then use '$book'"), usage]
                )
            )
            return nil
        }
        guard words.count > 1 else {
            diagnostics.append(
                .error(
                    "expected 'in' after 'for \(name)'",
                    rule: .badLoop,
                    at: SourceRange(offset: variable.range.end, length: 0),
                    notes: [usage]
                )
            )
            return nil
        }
        let inWord = words[1]
        guard !inWord.isQuoted, inWord.literalText == "in" else {
            var message = "expected 'in' after 'for \(name)', found '\(inWord.sourceForm)'"
            var fixIt: Diagnostic.FixIt?
            if let text = inWord.literalText, Suggest.distance(text, "in") <= 1 {
                message += " (did you mean 'in'?)"
                fixIt = Diagnostic.FixIt(range: inWord.range, replacement: "in")
            }
            diagnostics.append(.error(message, rule: .badLoop, at: inWord.range, notes: [usage], fixIt: fixIt))
            return nil
        }
        let items = Array(words.dropFirst(2))
        guard let first = items.first else {
            diagnostics.append(
                .error(
                    "missing the items to loop over after 'in'",
                    rule: .badLoop,
                    at: SourceRange(offset: inWord.range.end, length: 0),
                    notes: [usage]
                )
            )
            return nil
        }
        if !first.isQuoted, first.literalText == "lines" {
            guard items.count == 2 else {
                let at =
                    items.count < 2
                    ? SourceRange(offset: first.range.end, length: 0)
                    : items[2].range.union(items[items.count - 1].range)
                diagnostics.append(
                    .error("'for \(name) in lines' takes one file", rule: .badLoop, at: at, notes: [usage])
                )
                return nil
            }
            return (name, variable.range, .lines(items[1]))
        }
        if !first.isQuoted, first.literalText == "words" {
            guard items.count >= 2 else {
                diagnostics.append(
                    .error(
                        "'for \(name) in words' needs the text to split",
                        rule: .badLoop,
                        at: SourceRange(offset: first.range.end, length: 0),
                        notes: [usage]
                    )
                )
                return nil
            }
            return (name, variable.range, .split(Array(items.dropFirst())))
        }
        return (name, variable.range, .words(items))
    }

}
