import BTSLanguage
import BooksTrackContract

/// `set` (list), `set NAME VALUE` (a setting or a variable; a lone `${…}` keeps its structure).
struct SetCommand: ShellCommand {
    /// Changes the session only: no timing line after it (`timing` still shows the last real command).
    static let isMeasured = false

    static let nameArgument = ArgumentSpec("NAME", "A setting or variable name", type: .settingName, optional: true)
    /// Checked against the setting NAME names (``ValueType/settingName``); TAB offers its values.
    static let valueArgument = ArgumentSpec("VALUE", "The new value", optional: true, completion: .settingValue)

    static let configuration = CommandSpec(
        "set", group: .meta,
        summary: "Change a setting or assign a variable; alone, list both",
        discussion: "Settings: " + CommandRegistry.standardSettings.map(\.synopsis).joined(separator: ", ")
            + ". Any other NAME assigns a variable, read back as $NAME.",
        usage: ["set", "set NAME VALUE"],
        positionals: [nameArgument, valueArgument],
        examples: ["set output json", "set wait off", "set book ${_.results[0].isbn}"])

    var name: String?
    var value: BoundValue?

    init(_ resolved: ResolvedCommand) {
        name = resolved.string(Self.nameArgument)
        value = resolved.values(Self.valueArgument).first
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
        switch context.value(of: bound.word) {
        case .success(let value): context.variables[name] = value
        case .failure(let error): throw error
        }
        return nil
    }
}
