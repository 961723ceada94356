import BTSLanguage

/// The whole-script check, without a session: syntax errors plus the registry's validation of
/// every command and the shape of every condition, blocks included, each command resolved once
/// (a script runs as resolved here). A value of what the check reads, and nothing else: the
/// command registry and the aliases known before the script (a session's; a script's own `alias`
/// lines are learnt from it). It has no backend and does no I/O, so nothing it does can reach a
/// server: `bts check` and `bts lsp` check with it, and a session's check is it.
package struct ScriptChecker: Sendable {
    /// The commands the check resolves against.
    package let registry: CommandRegistry
    /// The aliases defined before the script (a session's `alias` commands so far).
    package let aliases: Set<String>

    package init(registry: CommandRegistry = .standard, aliases: Set<String> = []) {
        self.registry = registry
        self.aliases = aliases
    }

    /// Every diagnostic of the check of `text` named `name` (an editor's view: nothing runs).
    package func diagnostics(of text: String, name: String) -> [Diagnostic] {
        check(Parser.parse(SourceFile(name: name, text: text))).diagnostics
    }

    /// The check of a parsed script: its statements with every command resolved, and every
    /// diagnostic (the parser's too) in the order of the text.
    func check(_ parsed: ParseResult) -> CheckedScript {
        var diagnostics = parsed.diagnostics
        var known = aliases
        for command in parsed.script.commands {
            if let name = AliasCommand.definedName(by: command) { known.insert(name) }
        }
        var walk = Walk(registry: registry, aliases: known, source: parsed.source)
        let statements = walk.check(parsed.script.statements)
        diagnostics += walk.diagnostics
        return CheckedScript(
            source: parsed.source,
            statements: statements,
            diagnostics: diagnostics.sorted { $0.range.offset < $1.range.offset }
        )
    }

    /// One check's walk through the blocks: what it found so far.
    private struct Walk {
        let registry: CommandRegistry
        let aliases: Set<String>
        let source: SourceFile
        var diagnostics: [Diagnostic] = []
        /// The diagnostic of each unknown command name met so far: its "did you mean", against
        /// every command name, is made once a check (a junk file repeats its words).
        var unknown: [String: Diagnostic] = [:]

        init(registry: CommandRegistry, aliases: Set<String>, source: SourceFile) {
            self.registry = registry
            self.aliases = aliases
            self.source = source
        }

        mutating func check(_ statements: [Statement]) -> [CheckedStatement] {
            statements.compactMap { statement -> CheckedStatement? in
                switch statement {
                case .command(let command):
                    return check(command)
                case .forLoop(let loop):
                    return .loop(loop, body: check(loop.body))
                case .whileLoop(let loop):
                    checkCondition(loop.condition)
                    return .whileLoop(loop.condition, body: check(loop.body))
                case .conditional(let conditional):
                    let branches = conditional.branches.map { branch in
                        checkCondition(branch.condition)
                        return CheckedBranch(condition: branch.condition, body: check(branch.body))
                    }
                    return .conditional(branches, elseBody: conditional.elseBody.map { check($0) })
                case .loopControl(let control):
                    return .control(control.kind)
                }
            }
        }

        private mutating func check(_ command: Command) -> CheckedStatement? {
            if aliases.contains(command.nameText), registry.command(named: command.nameText) == nil {
                return .alias(command)
            }
            if let seen = unknown[command.nameText] {
                diagnostics.append(seen.shifted(by: command.name.range.offset - seen.range.offset))
                return nil
            }
            switch registry.resolve(command) {
            case .success(let resolved):
                if let problem = resolved.type?.diagnostic(in: command, source: source) {
                    diagnostics.append(problem)
                    return nil
                }
                return .command(resolved)
            case .failure(let found):
                if found.count == 1, found[0].range == command.name.range,
                    registry.command(named: command.nameText) == nil
                {
                    unknown[command.nameText] = found[0]
                }
                diagnostics += found.all
                return nil
            }
        }

        /// An `if`/`elif`/`while` condition read as it will be evaluated (``Condition``); an empty
        /// one is reported by the parser.
        private mutating func checkCondition(_ condition: Command) {
            let words = condition.arguments.map(\.word)
            guard !words.isEmpty, case .failure(let problem) = Condition.parse(words, what: condition.nameText) else {
                return
            }
            diagnostics.append(problem.diagnostic(in: source, whole: condition.range))
        }
    }
}

/// A statement checked against the registry (every command in it resolved once).
indirect enum CheckedStatement: Sendable {
    case command(ResolvedCommand)
    /// A call of an alias: its text is checked when it runs (the alias may be defined by then).
    case alias(Command)
    case loop(ForLoop, body: [CheckedStatement])
    /// `while COND … end`: the condition (a command named `while`) and the body.
    case whileLoop(Command, body: [CheckedStatement])
    case conditional([CheckedBranch], elseBody: [CheckedStatement]?)
    case control(LoopControl.Kind)
}

struct CheckedBranch: Sendable {
    var condition: Command
    var body: [CheckedStatement]
}
