import BTSShell
import BooksTrackClient
import BooksTrackContract
import BooksTrackServer
import Foundation

/// The values bts offers to bash, zsh and fish for TAB after an option (swift-argument-parser's
/// custom completion: the generated scripts run `bts ---completion …`). fish and zsh are given
/// each value's own description (`value<TAB>text`, `value:text`); without it fish showed the
/// option's whole help beside every value.
enum ShellCompletions {
    /// The shell asking (`SAP_SHELL`, set by the generated scripts).
    static var shell: String { ProcessInfo.processInfo.environment["SAP_SHELL"] ?? "" }

    /// `values` (name, description) that start with `prefix`, described as the asking shell shows it.
    static func offer(_ values: [(name: String, about: String)], prefix: String) -> [String] {
        values.filter { $0.name.hasPrefix(prefix) }.map { value in
            let about = value.about.replacingOccurrences(of: "\n", with: " ")
            switch shell {
            case "fish": return about.isEmpty ? value.name : value.name + "\t" + about
            case "zsh":
                return about.isEmpty ? value.name : value.name.replacingOccurrences(of: ":", with: "\\:") + ":" + about
            default: return value.name
            }
        }
    }

    /// `--profile`: the built-in profiles and those of the config file (its own override a built-in
    /// one of the same name), each with its URL.
    static func profiles(prefix: String) -> [String] {
        let config = (try? ShellConfig.load(from: XDGPaths().configFile)) ?? ShellConfig()
        let values = config.profileNames.map { name in
            (name: name, about: config.profile(named: name).map { SecretMasking.maskURL($0.url.absoluteString) } ?? "")
        }
        return offer(values, prefix: prefix)
    }

    /// `--output`: the output formats.
    static func outputFormats(prefix: String) -> [String] {
        offer(OutputFormat.allCases.map { ($0.rawValue, about($0)) }, prefix: prefix)
    }

    private static func about(_ format: OutputFormat) -> String {
        switch format {
        case .table: return "aligned columns (the default on a terminal)"
        case .json: return "one JSON document (the default otherwise)"
        case .ndjson: return "one JSON object per line"
        case .csv: return "comma-separated values with a header row"
        case .markdown: return "a GitHub-flavoured Markdown table"
        }
    }

    /// `--dialect`: auto and the dialects.
    static func dialects(prefix: String) -> [String] {
        // Every value has a line: without one, fish shows the option's whole help beside it.
        offer(
            [("auto", "ask the server: v3, else v1/v2")] + APIDialect.allCases.map { ($0.rawValue, about($0)) },
            prefix: prefix
        )
    }

    private static func about(_ dialect: APIDialect) -> String {
        switch dialect {
        case .v1: return "the /v1 and /api/v2 routes"
        case .v3: return "the /v3 routes (production since December 2025)"
        }
    }

    /// `bts serve …`: the server's flags, read from the one list that documents them
    /// (`ServerConfiguration.flagHelp`): each line that starts with `-` names one or more flags
    /// (`--port N, -p N`) before its description.
    static func serverFlags(prefix: String) -> [String] {
        offer(serverFlagList, prefix: prefix)
    }

    static let serverFlagList: [(name: String, about: String)] = {
        var flags: [(name: String, about: String)] = []
        for line in ServerConfiguration.flagHelp.split(separator: "\n") where line.hasPrefix("-") {
            guard let gap = line.range(of: "  ") else { continue }
            let synopsis = line[..<gap.lowerBound]
            let about = line[gap.upperBound...].trimmingCharacters(in: .whitespaces)
            for part in synopsis.split(separator: ",") {
                guard let word = part.split(separator: " ").first else { continue }
                let name = word.prefix { $0 != "[" && $0 != "=" }
                flags.append((String(name), about))
            }
        }
        return flags
    }()
}
