import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// Generates the README's Markdown command reference from the registry.
package enum CommandReference {
    /// The reference: a summary table per group, then a section per command.
    package static func markdown(_ registry: CommandRegistry = .standard) -> String {
        var out: [String] = ["# Command reference", ""]
        out.append("<!-- Generated from the command types (CommandTable.all); do not edit by hand. -->")
        out.append("")
        let groups: [(CommandGroup, String)] = [
            (.mission, "Mission commands"), (.library, "Library commands"), (.meta, "Meta commands"),
        ]
        for (group, title) in groups {
            out += ["## \(title)", "", "| command | does | gated by | budget |", "|---|---|---|---|"]
            for spec in registry.commands(in: group) {
                let synopsis = ([spec.name] + spec.positionals.map(\.synopsis)).joined(separator: " ")
                out.append(
                    "| `\(escape(synopsis))` | \(escape(spec.summary)) | \(spec.gate.map { "`\($0.feature.rawValue)`" + ($0.scope.map { " (\($0))" } ?? "") } ?? "") | \(spec.budgetClass?.rawValue ?? "") |"
                )
            }
            out.append("")
        }
        out += [registry.globalOptionsNote(markdown: true), ""]
        for spec in registry.commands {
            out += section(spec, path: [spec.name])
        }
        out += ["## Settings (`set NAME VALUE`)", "", "| setting | values | default | meaning |", "|---|---|---|---|"]
        for setting in registry.settings {
            var values = setting.valueType.expectation
            if case .enumeration(let words) = setting.valueType { values = words.joined(separator: " \\| ") }
            out.append(
                "| `\(setting.name)` | \(values) | \(escape(setting.defaultDescription)) | \(escape(setting.help)) |"
            )
        }
        out.append("")
        return out.joined(separator: "\n")
    }

    private static func section(_ spec: CommandSpec, path: [String]) -> [String] {
        let display = path.joined(separator: " ")
        var out = ["### `\(display)`", "", spec.summary + "."]
        if !spec.aliases.isEmpty {
            out[2] += " Aliases: " + spec.aliases.map { "`\($0)`" }.joined(separator: ", ") + "."
        }
        out.append("")
        out.append("```")
        out += spec.usageLines(prefix: path.dropLast().joined(separator: " "))
        out += ["```", ""]
        if !spec.discussion.isEmpty { out += [spec.discussion, ""] }
        if !spec.positionals.isEmpty || !spec.options.isEmpty {
            out += ["| argument / option | meaning |", "|---|---|"]
            for argument in spec.positionals {
                out.append("| `\(escape(argument.synopsis))` | \(escape(argument.help)) |")
            }
            for option in spec.options {
                let short = option.short.map { "`-\($0)`, " } ?? ""
                out.append("| \(short)`\(escape(option.synopsis))` | \(escape(option.help)) |")
            }
            out.append("")
        }
        var facts: [String] = []
        if let gate = spec.gate {
            facts.append(
                "Gated by the server feature `\(gate.feature.rawValue)`\(gate.scope.map { " (\($0) only)" } ?? "")."
            )
        }
        if let budget = spec.budgetClass { facts.append("Rate-limit budget: `\(budget.rawValue)`.") }
        if spec.isSensitive { facts.append(CommandSpec.sensitiveFact) }
        if !facts.isEmpty { out += [facts.joined(separator: " "), ""] }
        if !spec.examples.isEmpty {
            out += ["```"] + spec.examples + ["```", ""]
        }
        for sub in spec.subcommands {
            out += section(sub, path: path + [sub.name])
        }
        return out
    }

    private static func escape(_ text: String) -> String {
        text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
