import BTSLanguage
import BTSTerminalText
import Foundation

/// The variables a run starts with, from outside the script: `--vars FILE` (`NAME=VALUE` lines, as a
/// `.env` file), then each `--var NAME=VALUE` (later ones win); the script's own `set` overrides
/// both when it runs. Values are strings.
package enum ScriptVariables {
    /// Why a `--var` or a `--vars` file was refused: one sentence, on one line, neutralised as every
    /// string from outside is on its way to the terminal (`TerminalText`): what it quotes — a
    /// name, a path, a file's line — cannot drive the terminal or reorder what is shown.
    package struct Failure: Error, Sendable, Equatable {
        package var message: String

        init(message: String) {
            self.message = TerminalText.sanitize(message, lines: .flatten)
        }
    }

    /// The variables of `--vars` files (in order) and `--var` assignments (after them, in order).
    package static func collect(files: [String], assignments: [String]) -> Result<[String: String], Failure> {
        var variables: [String: String] = [:]
        for path in files {
            let text: String
            do throws(ScriptFile.Failure) {
                text = try ScriptFile.read(path)
            } catch {
                return .failure(Failure(message: error.sentence(path, "cannot read the variables file")))
            }
            switch parse(text, name: path) {
            case .success(let pairs): for (name, value) in pairs { variables[name] = value }
            case .failure(let failure): return .failure(failure)
            }
        }
        for assignment in assignments {
            switch split(assignment) {
            case .success(let (name, value)): variables[name] = value
            case .failure(let reason): return .failure(Failure(message: "--var '\(shown(assignment))': \(reason.text)"))
            }
        }
        return .success(variables)
    }

    /// `NAME=VALUE` (the value as it is: the shell has already removed any quotes).
    static func split(_ assignment: String) -> Result<(String, String), Reason> {
        guard let equals = assignment.firstIndex(of: "=") else { return .failure(Reason("expected NAME=VALUE")) }
        let name = String(assignment[..<equals])
        if let problem = nameProblem(name) { return .failure(problem) }
        return .success((name, String(assignment[assignment.index(after: equals)...])))
    }

    /// The lines of a variables file: `NAME=VALUE`, an optional `export ` before NAME, blank lines
    /// and `#` comment lines; a value in single quotes is literal, one in double quotes takes `\"`,
    /// `\\`, `\n` and `\t`; an unquoted value is trimmed and ends at ` #` (a comment).
    static func parse(_ text: String, name: String) -> Result<[(String, String)], Failure> {
        var pairs: [(String, String)] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine)
            line = line.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = line.dropFirst("export ".count).drop { $0 == " " } }
            func failure(_ reason: String) -> Failure { Failure(message: "\(name):\(index + 1): \(reason)") }
            guard let equals = line.firstIndex(of: "=") else { return .failure(failure("expected NAME=VALUE")) }
            let variable = String(line[..<equals]).trimmingCharacters(in: .whitespaces)
            if let problem = nameProblem(variable) { return .failure(failure(problem.text)) }
            switch value(line[line.index(after: equals)...]) {
            case .success(let value): pairs.append((variable, value))
            case .failure(let reason): return .failure(failure(reason.text))
            }
        }
        return .success(pairs)
    }

    private static func value(_ raw: Substring) -> Result<String, Reason> {
        let text = raw.drop { $0 == " " || $0 == "\t" }
        guard let quote = text.first, quote == "'" || quote == "\"" else {
            let uncommented = text.range(of: " #").map { text[..<$0.lowerBound] } ?? text
            return .success(uncommented.trimmingCharacters(in: .whitespaces))
        }
        var value = ""
        var escaped = false
        var rest = text.dropFirst()
        while let character = rest.first {
            rest = rest.dropFirst()
            if escaped {
                switch character {
                case "n": value.append("\n")
                case "t": value.append("\t")
                default: value.append(character)
                }
                escaped = false
            } else if quote == "\"", character == "\\" {
                escaped = true
            } else if character == quote {
                let after = rest.drop { $0 == " " || $0 == "\t" }
                guard after.isEmpty || after.hasPrefix("#") else {
                    return .failure(Reason("unexpected text after the closing \(quote)"))
                }
                return .success(value)
            } else {
                value.append(character)
            }
        }
        return .failure(Reason("the value's \(quote) is not closed"))
    }

    private static func nameProblem(_ name: String) -> Reason? {
        guard !Parser.isVariableName(name) else { return nil }
        if name == Parser.environmentName || name == "_" || name == Parser.exchangeName {
            return Reason(
                "'\(name)' is reserved ('_' is the last result, '\(Parser.exchangeName)' the last HTTP exchange, '\(Parser.environmentName)' the environment)"
            )
        }
        return Reason("'\(shown(name))' is not a variable name (a letter or '_', then letters, digits or '_')")
    }

    /// A word of the user's as a message quotes it: neutralised, then cut to 60 characters.
    private static func shown(_ text: String) -> String {
        let printable = TerminalText.sanitize(text, lines: .flatten)
        return printable.count > 60 ? String(printable.prefix(60)) + "…" : printable
    }

    struct Reason: Error, Sendable {
        var text: String
        init(_ text: String) { self.text = text }
    }
}
