import BTSLanguage
import BTSShell
import BooksTrackContract

/// Hover on a variable or an alias (``ScriptBindings``): what it is, where it is set and, as far
/// as the text says, to what.
enum VariableHover {
    /// The most definitions a variable's hover lists (then how many more there are).
    static let maxDefinitions = 5

    /// The hover of the variable or alias at `offset`; nil elsewhere.
    static func hover(_ bindings: ScriptBindings, at offset: Int, in index: LineIndex) -> LanguageServerResults.Hover? {
        guard let occurrence = bindings.occurrence(at: offset) else { return nil }
        let binding = bindings.binding(occurrence.binding)
        let text = text(binding, uses: bindings.uses(of: binding), in: index)
        return LanguageServerResults.Hover(
            contents: .init(value: text),
            range: index.range(occurrence.range.offset, occurrence.range.end)
        )
    }

    /// The hover's text of `binding`, read at `uses`.
    static func text(
        _ binding: ScriptBindings.Binding,
        uses: [ScriptBindings.Use],
        in index: LineIndex
    ) -> String {
        func line(_ range: SourceRange) -> Int { index.line(of: range.offset) + 1 }
        switch binding.kind {
        case .loop:
            guard let definition = binding.definitions.first else { return "$\(binding.name): loop variable" }
            var text = "$\(binding.name): loop variable (line \(line(definition.range)))"
            if case .items(let form, let items, _)? = definition.value {
                switch form {
                case .elements: text += "\neach element of \(items)"
                case .lines: text += "\neach line of the file \(items)"
                case .words: text += "\neach word of \(items)"
                }
            }
            return text
        case .variable:
            var lines = ["$\(binding.name): variable (set)"]
            for definition in binding.definitions.prefix(maxDefinitions) {
                lines.append("line \(line(definition.range)): " + describe(definition.value))
            }
            if binding.definitions.count > maxDefinitions {
                lines.append("and \(binding.definitions.count - maxDefinitions) more")
            }
            return lines.joined(separator: "\n")
        case .external:
            var lines = ["$\(binding.name): not set in this script: given with --var NAME=VALUE or --vars FILE"]
            for use in uses where use.fallback != nil {
                lines.append("line \(line(use.range)): default '\(use.fallback ?? "")'")
            }
            return lines.joined(separator: "\n")
        case .alias:
            var lines = ["\(binding.name): alias"]
            for definition in binding.definitions.prefix(maxDefinitions) {
                lines.append("line \(line(definition.range)): " + describe(definition.value))
            }
            return lines.joined(separator: "\n")
        }
    }

    private static func describe(_ value: ScriptBindings.Value?) -> String {
        switch value {
        case .literal(let text)?: return "set to '\(text)'"
        case .arithmetic(let expression)?: return "set to \(expression) (integer arithmetic)"
        case .word(let word)?: return "set to \(word) (read when the line runs)"
        case .aliasText(let text)?: return "runs \(text)"
        case .items(_, let text, _)?: return "each item of \(text)"
        case nil: return "set"
        }
    }
}
