import BTSLanguage
import BooksTrackContract

/// `set` (list), `set NAME VALUE` (a setting or a variable; a lone `${…}` keeps its structure),
/// `set NAME A OP B` (integer arithmetic, ``Arithmetic``).
struct SetCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    /// Changes the session only: no timing line after it (`timing` still shows the last real command).
    static let isMeasured = false

    static let nameArgument = ArgumentSpec("NAME", "A setting or variable name", type: .settingName, optional: true)
    /// Checked against the setting NAME names (``ValueType/settingName``); TAB offers its values.
    static let valueArgument = ArgumentSpec(
        "VALUE",
        "The new value (A of A OP B)",
        optional: true,
        completion: .settingValue
    )
    /// `set NAME A OP B`: the operator and the right operand (their shape is checked by ``problem(in:)``).
    static let operatorArgument = ArgumentSpec(
        "OP",
        "An operator of integer arithmetic: " + Arithmetic.Operator.allCases.map(\.rawValue).joined(separator: " "),
        optional: true,
        inOverview: false
    )
    static let rightArgument = ArgumentSpec("B", "The right operand", optional: true, inOverview: false)

    static let configuration = CommandSpec(
        "set",
        group: .meta,
        summary: "Change a setting or assign a variable; alone, list both",
        discussion: "Settings: " + CommandRegistry.standardSettings.map(\.synopsis).joined(separator: ", ")
            + ". Any other NAME assigns a variable, read back as $NAME; 'set NAME A OP B' assigns the integer "
            + "result of A OP B (OP: + - * / %; '/' truncates, as in sh). '_', '\(Parser.environmentName)' and "
            + "'\(VariableScope.Exchange.name)' are reserved: $_ is the last result, ${env.NAME} the environment, "
            + VariableScope.Exchange.synopsis + ".",
        usage: ["set", "set NAME VALUE", "set NAME A OP B"],
        positionals: [nameArgument, valueArgument, operatorArgument, rightArgument],
        examples: ["set output json", "set wait off", "set book ${_.results[0].isbn}", "set n 6 * 7"]
    )

    /// Words after VALUE make arithmetic, `A OP B` with an unquoted operator, for a variable.
    static func problem(in command: Command) -> String? {
        let words = command.arguments.map(\.word)
        guard words.count > 2 else { return nil }
        let name = words[0].literalText ?? ""
        let usage =
            "write 'set \(name) A OP B' (OP: \(Arithmetic.Operator.allCases.map(\.rawValue).joined(separator: " "))), "
            + "or quote a value with blanks: set \(name) \"a b\""
        guard words.count == 4, !words[2].isQuoted, let text = words[2].literalText, Arithmetic.op(text) != nil else {
            return "'set' takes one VALUE; \(usage)"
        }
        if CommandRegistry.standard.setting(named: name) != nil {
            return "'\(name)' is a setting: it takes one value, not arithmetic"
        }
        return nil
    }

    /// The variable `command` assigns (`set NAME …` with NAME a variable's name, not a setting's), if any.
    static func assignedVariable(by command: Command) -> String? {
        guard command.nameText == name, let text = command.arguments.first?.word.literalText,
            CommandRegistry.isVariableName(text), CommandRegistry.standard.setting(named: text) == nil
        else { return nil }
        return text
    }

    var name: String?
    var value: BoundValue?
    /// `A OP B`: the operands' texts and the operator (the shape is checked by ``problem(in:)``).
    var arithmetic: (left: BoundValue, op: Arithmetic.Operator, right: BoundValue)?

    init(_ resolved: ResolvedCommand) {
        name = resolved.string(Self.nameArgument)
        value = resolved.values(Self.valueArgument).first
        if let value, let op = resolved.values(Self.operatorArgument).first,
            let right = resolved.values(Self.rightArgument).first,
            let text = op.word.literalText, let found = Arithmetic.op(text)
        {
            arithmetic = (value, found, right)
        }
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        guard let name else {
            var lines: [String] = []
            var settingValues: [String: JSONValue] = [:]
            for spec in CommandRegistry.standardSettings {
                let value = context.settings.value(of: spec.name) ?? ""
                settingValues[spec.name] = .string(value)
                lines.append("\(spec.name) = \(value)")
            }
            for key in context.variables.keys.sorted() {
                lines.append("$\(key) = \(context.variables[key]?.compactJSON ?? "")")
            }
            let value = JSONValue.record([
                ("settings", .object(settingValues)), ("variables", .object(context.variables)),
            ])
            return CommandOutput(value: value, view: .text(lines.joined(separator: "\n")), setsResult: false)
        }
        guard let bound = value, let text = bound.text else {
            throw ShellError(.usage, "missing VALUE for 'set \(name)'")
        }
        if CommandRegistry.standard.setting(named: name) != nil {
            guard context.settings.apply(name, text) else {
                throw ShellError(.usage, "invalid value '\(text)' for setting '\(name)'", range: bound.word.range)
            }
            return nil
        }
        if let (left, op, right) = arithmetic {
            switch Arithmetic.evaluate(left.text ?? "", op, right.text ?? "") {
            case .success(let result): context.variables[name] = .number(Double(result))
            case .failure(let failure):
                throw ShellError(
                    .failure,
                    failure.message,
                    range: left.word.range.union(right.word.range),
                    code: .arithmetic
                )
            }
            return nil
        }
        switch context.value(of: bound.word) {
        case .success(let value): context.variables[name] = value
        case .failure(let error): throw error
        }
        return nil
    }
}

extension ErrorCode {
    /// `set NAME A OP B` with an operand that is not an integer, a division by zero or an overflow.
    static let arithmetic: ErrorCode = "ARITHMETIC"
}
