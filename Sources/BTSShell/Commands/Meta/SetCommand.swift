import BTSLanguage
import BooksTrackContract

/// `set` (list), `set NAME VALUE` (a setting or a variable; a lone `${…}` keeps its structure),
/// `set NAME A OP B` (integer arithmetic, ``Arithmetic``).
struct SetCommand: ShellCommand {
    /// Changes the session only: no timing line after it (`timing` still shows the last real command).
    static let isMeasured = false

    static let nameArgument = ArgumentSpec("NAME", "A setting or variable name", type: .settingName, optional: true)
    /// Checked against the setting NAME names (``ValueType/settingName``); TAB offers its values.
    /// Variadic for `A OP B`; any other count of words is refused by ``problem(in:)``.
    static let valueArgument = ArgumentSpec("VALUE", "The new value, or A OP B (OP: + - * / %) for a variable",
                                            optional: true, variadic: true, completion: .settingValue)

    static let configuration = CommandSpec(
        "set", group: .meta,
        summary: "Change a setting or assign a variable; alone, list both",
        discussion: "Settings: " + CommandRegistry.standardSettings.map(\.synopsis).joined(separator: ", ")
            + ". Any other NAME assigns a variable, read back as $NAME; 'set NAME A OP B' assigns the integer "
            + "result of A OP B (OP: + - * / %; '/' truncates, as in sh).",
        usage: ["set", "set NAME VALUE", "set NAME A OP B"],
        positionals: [nameArgument, valueArgument],
        examples: ["set output json", "set wait off", "set book ${_.results[0].isbn}", "set i $i + 1"])

    /// More than one VALUE word is arithmetic, `A OP B` with an unquoted operator, for a variable.
    static func problem(in command: Command) -> String? {
        let words = command.arguments.map(\.word)
        guard words.count > 2 else { return nil }
        let name = words[0].literalText ?? ""
        let usage = "write 'set \(name) A OP B' (OP: \(Arithmetic.Operator.allCases.map(\.rawValue).joined(separator: " "))), "
            + "or quote a value with blanks: set \(name) \"a b\""
        guard words.count == 4, !words[2].isQuoted, let text = words[2].literalText, Arithmetic.op(text) != nil else {
            return "'set' takes one VALUE; \(usage)"
        }
        if CommandRegistry.standard.setting(named: name) != nil {
            return "'\(name)' is a setting: it takes one value, not arithmetic"
        }
        return nil
    }

    var name: String?
    var value: BoundValue?
    /// `A OP B`: the operands' texts and the operator (the shape is checked by ``problem(in:)``).
    var arithmetic: (left: BoundValue, op: Arithmetic.Operator, right: BoundValue)?

    init(_ resolved: ResolvedCommand) {
        name = resolved.string(Self.nameArgument)
        let values = resolved.values(Self.valueArgument)
        value = values.first
        if values.count == 3, let text = values[1].word.literalText, let op = Arithmetic.op(text) {
            arithmetic = (values[0], op, values[2])
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
            let value = JSONValue.record([("settings", .object(settingValues)), ("variables", .object(context.variables))])
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
                throw ShellError(.failure, failure.message, range: left.word.range.union(right.word.range), code: .arithmetic)
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
