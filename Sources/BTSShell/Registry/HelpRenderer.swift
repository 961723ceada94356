import BTSLanguage
import BTSTerminalText
import BooksTrackClient
import BooksTrackContract
import Foundation

/// Renders `help` and `help CMD` from the registry. Plain text; the caller may add colour.
package struct HelpRenderer: Sendable {
    package var registry: CommandRegistry
    /// Whether a capability feature is enabled on the current server (unknown → pass `true`).
    package var isAvailable: @Sendable (String) -> Bool

    package init(
        registry: CommandRegistry = .standard,
        isAvailable: @escaping @Sendable (String) -> Bool = { _ in true }
    ) {
        self.registry = registry
        self.isAvailable = isAvailable
    }

    /// The marker text for a gated command whose feature is off, else nil.
    package func unavailability(of spec: CommandSpec) -> String? {
        guard let gate = spec.gate, !isAvailable(gate.feature.rawValue) else { return nil }
        let what = gate.scope.map { "\($0) " } ?? ""
        return "\(what)unavailable on this server: \(gate.feature.rawValue) is disabled"
    }

    /// `help`: every command grouped into mission and meta commands.
    package func overview() -> String {
        var lines: [String] = ["bts — the BooksTrack shell", ""]
        let headings: [(CommandGroup, String)] = [
            (.mission, "Mission commands:"), (.library, "Library commands:"), (.meta, "Meta commands:"),
        ]
        let width = registry.commands.map { shortSynopsis($0).count }.max() ?? 0
        for (group, heading) in headings {
            lines.append(heading)
            for spec in registry.commands(in: group) {
                let synopsis = shortSynopsis(spec)
                var summary = spec.summary
                if let marker = unavailability(of: spec) { summary += " (\(marker))" }
                lines += hanging("  " + synopsis + String(repeating: " ", count: width - synopsis.count + 2), summary)
            }
            lines.append("")
        }
        lines += DisplayWidth.wrap(registry.globalOptionsNote(markdown: false), width: Self.width)
        lines.append("Type 'help COMMAND' for details, e.g. 'help search'.")
        lines.append("Config: $XDG_CONFIG_HOME/bts/config.toml (profiles), rc.bts (docs/config.md).")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `help CMD [SUB]`: usage, arguments, options, examples. Nil when the path is unknown.
    package func help(for path: [String]) -> String? {
        guard let spec = registry.spec(at: path) else { return nil }
        var resolvedPath = [String]()
        var current: CommandSpec?
        for step in path {
            current = current.map { $0.subcommand(named: step) ?? $0 } ?? registry.command(named: step)
            resolvedPath.append(current?.name ?? step)
        }
        return help(for: spec, path: resolvedPath)
    }

    /// The detailed help of `spec`, reached through `path` (e.g. `["search", "title"]`).
    package func help(for spec: CommandSpec, path: [String]) -> String {
        let display = path.joined(separator: " ")
        var lines = hanging("\(display) — ", spec.summary)
        if !spec.aliases.isEmpty {
            lines.append("Aliases: " + spec.aliases.joined(separator: ", "))
        }
        if let marker = unavailability(of: spec) {
            lines += ["", "(\(marker))"]
        }
        lines += ["", "Usage:"]
        lines += spec.usageLines(prefix: path.dropLast().joined(separator: " ")).flatMap(usage)
        if !spec.discussion.isEmpty {
            lines += [""] + DisplayWidth.wrap(spec.discussion, width: Self.width)
        }
        if !spec.subcommands.isEmpty {
            lines += ["", "Subcommands:"]
            lines += table(spec.subcommands.map { ($0.name, $0.summary) })
        }
        if !spec.positionals.isEmpty {
            lines += ["", "Arguments:"]
            lines += table(spec.positionals.map { ($0.synopsis, $0.help) })
        }
        let options = spec.options + (spec.takesRawArguments ? [] : CommandRegistry.globalOptions)
        if !options.isEmpty {
            lines += ["", "Options:"]
            lines += table(
                options.map { option in
                    let short = option.short.map { "-\($0), " } ?? "    "
                    return (short + option.synopsis, option.help)
                }
            )
        }
        if !spec.examples.isEmpty {
            lines += ["", "Examples:"]
            lines += spec.examples.map { "  " + $0 }
        }
        var facts: [String] = []
        if let gate = spec.gate {
            facts.append(
                "Needs the server feature '\(gate.feature.rawValue)'\(gate.scope.map { " (\($0) only)" } ?? "")."
            )
        }
        if let budget = spec.budgetClass { facts.append("Rate-limit budget: \(budget.rawValue).") }
        if spec.isSensitive { facts.append(CommandSpec.sensitiveFact) }
        if !facts.isEmpty { lines += [""] + DisplayWidth.wrap(facts.joined(separator: " "), width: Self.width) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `search QUERY...`: name and positionals, for the overview.
    func shortSynopsis(_ spec: CommandSpec) -> String {
        ([spec.name] + spec.positionals.filter(\.inOverview).map(\.synopsis)).joined(separator: " ")
    }

    /// Help fits 80 columns: every line at most this wide, broken between words.
    package static let width = 80

    private func table(_ rows: [(String, String)]) -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.flatMap { left, right in
            hanging("  " + left + String(repeating: " ", count: width - left.count + 2), right)
        }
    }

    /// A usage line within the width: broken between its groups (`[--shelf SHELF]` stays whole),
    /// continuation lines indented under the first argument.
    func usage(_ line: String) -> [String] {
        var groups: [String] = []
        var current = ""
        var depth = 0
        for character in line {
            if character == "[" { depth += 1 } else if character == "]" { depth = max(0, depth - 1) }
            if character == " ", depth == 0 {
                if !current.isEmpty { groups.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { groups.append(current) }
        let indent = String(repeating: " ", count: 4)
        var lines: [String] = []
        var text = "  "
        for group in groups {
            let fresh = text.trimmingCharacters(in: .whitespaces).isEmpty
            if !fresh, text.count + 1 + group.count > Self.width {
                lines.append(text)
                text = indent + group
            } else {
                text += (fresh ? "" : " ") + group
            }
        }
        lines.append(text)
        return lines
    }

    /// `prefix` then `text` wrapped on word boundaries; continuation lines are indented to the
    /// text's column (or 6 columns when the prefix is too wide to leave room).
    func hanging(_ prefix: String, _ text: String) -> [String] {
        let indent = prefix.count <= Self.width / 2 ? prefix.count : 6
        let room = Self.width - indent
        var lines = DisplayWidth.wrap(text, width: Self.width - prefix.count, rest: room)
        guard !lines.isEmpty else { return [prefix] }
        lines[0] = prefix + lines[0]
        for index in lines.indices.dropFirst() { lines[index] = String(repeating: " ", count: indent) + lines[index] }
        return lines
    }
}
