import BTSLanguage
import BTSShell

/// What the `${…}` paths of a parsed script lead to, for completion and hover: `$_` is the result
/// of the nearest command before (in the same or an enclosing block, skipping the commands that
/// leave it as it was: `echo`, `set`, `expect`, …), a `for` loop's variable an element of the
/// list it walks, `$_http` the last exchange. A pure function of the script and the registry.
struct ResultFieldScope {
    let script: Script
    let registry: CommandRegistry

    /// Where `$_` comes from at a place: the command whose result it is (nil: none is known, and
    /// its shape is every command's).
    struct LastResult {
        var command: Command?
        var shape: ResultShape
    }

    /// The shape of `$_` at byte `offset`; nil when no command runs before it.
    func lastResult(at offset: Int) -> LastResult? {
        guard let command = lastCommand(in: script.statements, before: offset) else { return nil }
        guard let shape = shape(of: command) else { return LastResult(command: nil, shape: CommandResults.anyResult) }
        return LastResult(command: command, shape: shape)
    }

    /// The kind `reference`'s path reaches, read at byte `offset` (nil: not a declared one).
    func kind(of name: String, path: [ValuePath.Component], at offset: Int) -> ResultShape.Kind? {
        base(of: name, at: offset)?.descending(path[...])
    }

    /// The value a variable name stands for at `offset`, as a kind: `_`, `_http`, or a loop's variable.
    func base(of name: String, at offset: Int) -> ResultShape.Kind? {
        switch name {
        case "_": return lastResult(at: offset).map { .record($0.shape) }
        case Parser.exchangeName: return .record(.exchange)
        default: return loopElement(named: name, at: offset)
        }
    }

    /// The element kind of the innermost `for NAME in ${PATH}` around `offset` whose variable is `name`.
    func loopElement(named name: String, at offset: Int) -> ResultShape.Kind? {
        guard let loop = enclosingLoops(in: script.statements, at: offset).last(where: { $0.variable == name }),
            case .words(let words) = loop.items, words.count == 1, words[0].parts.count == 1,
            case .variable(let reference) = words[0].parts[0]
        else { return nil }
        guard
            case .list(let element)? = kind(of: reference.name, path: reference.path.components, at: loop.range.offset)
        else { return nil }
        return element
    }

    /// The declared result of `command` (its subcommand's, when it names one); nil for a name the
    /// registry does not know (an alias).
    func shape(of command: Command) -> ResultShape? {
        guard let spec = registry.command(named: command.nameText) else { return nil }
        var path = [spec.name]
        if let first = command.arguments.first, first.option == nil, let text = first.word.literalText,
            let sub = spec.subcommand(named: text)
        {
            path.append(sub.name)
        }
        return CommandResults.shape(for: path) ?? CommandResults.anyResult
    }

    /// Whether `command` leaves `$_` as it was.
    private func leavesResult(_ command: Command) -> Bool {
        guard let spec = registry.command(named: command.nameText) else { return false }
        return CommandResults.leavesResult([spec.name])
    }

    /// The last command that sets `$_` before `offset` among `statements` and, when `offset` is
    /// inside a block, in that block before it (a block closed before `offset` is passed over).
    private func lastCommand(in statements: [Statement], before offset: Int) -> Command? {
        var last: Command?
        for statement in statements {
            guard let range = Self.extent(of: statement), range.offset < offset else { break }
            switch statement {
            case .command(let command):
                // Not the command the place is in (`similar ${_.results[0].isbn}`).
                if command.range.end <= offset, !leavesResult(command) { last = command }
            case .forLoop(let loop):
                if offset <= range.end, let inner = lastCommand(in: loop.body, before: offset) { return inner }
            case .whileLoop(let loop):
                if offset <= range.end, let inner = lastCommand(in: loop.body, before: offset) { return inner }
            case .conditional(let conditional):
                guard offset <= range.end, let body = Self.branch(of: conditional, at: offset) else { continue }
                return lastCommand(in: body, before: offset) ?? last
            case .loopControl:
                continue
            }
        }
        return last
    }

    /// The body of the branch of `conditional` that holds `offset`: the last whose condition starts
    /// before it (the `else` body once its first statement does).
    private static func branch(of conditional: Conditional, at offset: Int) -> [Statement]? {
        if let body = conditional.elseBody, let first = body.first.flatMap(extent(of:)), first.offset < offset {
            return body
        }
        return conditional.branches.last { $0.condition.range.offset < offset }?.body
    }

    /// The `for` loops whose block holds `offset`, outermost first.
    private func enclosingLoops(in statements: [Statement], at offset: Int) -> [ForLoop] {
        for statement in statements {
            guard let range = Self.extent(of: statement), range.offset <= offset, offset <= range.end else { continue }
            switch statement {
            case .forLoop(let loop):
                return [loop] + enclosingLoops(in: loop.body, at: offset)
            case .whileLoop(let loop):
                return enclosingLoops(in: loop.body, at: offset)
            case .conditional(let conditional):
                return Self.branch(of: conditional, at: offset).map { enclosingLoops(in: $0, at: offset) } ?? []
            case .command, .loopControl:
                return []
            }
        }
        return []
    }

    /// From a statement's first line to its `end` (a block left open reaches the end of the text).
    static func extent(of statement: Statement) -> SourceRange? {
        func span(_ start: SourceRange, _ end: SourceRange?) -> SourceRange {
            SourceRange(offset: start.offset, length: (end?.end ?? Int.max / 2) - start.offset)
        }
        switch statement {
        case .command(let command): return command.range
        case .forLoop(let loop): return span(loop.range, loop.end)
        case .whileLoop(let loop): return span(loop.range, loop.end)
        case .conditional(let conditional):
            return conditional.branches.first.map { span($0.condition.range, conditional.end) }
        case .loopControl(let control): return control.range
        }
    }
}
