import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// The variables a word can read — `$name`, `${name.path}`, `$_`, `${_http.status}`, `$?`, `$0`…`$n` —
/// as they stand when a command runs. Pure: interpolation and path lookup without the session.
struct VariableScope: Sendable {
    var variables: [String: JSONValue]
    /// `$_`.
    var lastResult: JSONValue
    /// `$?`.
    var lastStatus: Int32
    /// `$0` and `$1..$n`.
    var scriptName: String
    var scriptArguments: [String]
    /// Setting names (an undefined `$output` hints at `set`).
    var settingNames: Set<String>
    /// What `${env.NAME}` reads.
    var environment: [String: String] = [:]
    /// What `$_http` reads (``Exchange``): nil before the session's first request.
    var exchange: HTTPExchange?

    /// A word's text with `$var`, `${var.path}` and `$?` replaced.
    func interpolate(_ word: Word) -> Result<String, ShellError> {
        var text = ""
        for part in word.parts {
            switch part {
            case .literal(let literal, _, _):
                text += literal
            case .status:
                text += String(lastStatus)
            case .variable(let reference):
                switch lookup(reference) {
                case .success(let value):
                    if reference.isList, case .array(let elements) = value {
                        text += elements.map(\.interpolationText).joined(separator: " ")
                    } else {
                        text += value.interpolationText
                    }
                case .failure(let error): return .failure(error)
                }
            }
            if text.utf8.count > ValueLimit.maxBytes { return .failure(ValueLimit.tooLarge(text.utf8.count)) }
        }
        return .success(text)
    }

    /// The structured value of a word that is exactly one variable reference (`${_.results}`),
    /// else its interpolated text as a string.
    func value(of word: Word) -> Result<JSONValue, ShellError> {
        if word.parts.count == 1, case .variable(let reference) = word.parts[0] {
            return lookup(reference)
        }
        return interpolate(word).map(JSONValue.string)
    }

    /// The words a word stands for: one per element for a list (`$@`, `${…[*]…}`), else one.
    func words(of word: Word) -> Result<[String], ShellError> {
        guard let reference = word.listReference else { return interpolate(word).map { [$0] } }
        return lookup(reference).map { value in
            if case .array(let elements) = value { return elements.map(\.interpolationText) }
            return [value.interpolationText]
        }
    }

    /// The items a `for` loop walks for one word: the elements when the word is one variable
    /// holding an array (or a list), the value itself for any other lone variable, else the text.
    func items(of word: Word) -> Result<[JSONValue], ShellError> {
        if word.parts.count == 1, case .variable(let reference) = word.parts[0] {
            return lookup(reference).map { value in
                if case .array(let elements) = value { return elements }
                return [value]
            }
        }
        return interpolate(word).map { [.string($0)] }
    }

    /// Reads a variable and walks its path. Unknown variables are usage errors (2); a missing
    /// key or index is a failure (1) pointing at the exact step. `${NAME:-TEXT}` gives TEXT when
    /// the variable is unset, a step is missing, or the value is null or empty.
    func lookup(_ reference: VariableReference) -> Result<JSONValue, ShellError> {
        guard let fallback = reference.fallback else { return resolve(reference) }
        switch resolve(reference) {
        case .success(let value) where !value.isNull && value.interpolationText != "": return .success(value)
        default: return .success(.string(fallback))
        }
    }

    private func resolve(_ reference: VariableReference) -> Result<JSONValue, ShellError> {
        var value: JSONValue
        let name = reference.name
        if name == "#" {
            return .success(.number(Double(scriptArguments.count)))
        } else if name == "@" {
            value = scriptArguments.json
        } else if name == "_" {
            value = lastResult
        } else if reference.isPositional, let index = Int(name) {
            if index == 0 {
                value = .string(scriptName)
            } else if index <= scriptArguments.count {
                value = .string(scriptArguments[index - 1])
            } else {
                let count = scriptArguments.count
                return .failure(
                    ShellError(
                        .usage,
                        "script argument $\(index) was not given (the script got \(count) argument\(count == 1 ? "" : "s"))",
                        range: reference.nameRange.union(reference.range)
                    )
                )
            }
        } else if name == Parser.environmentName {
            return readEnvironment(reference)
        } else if name == Parser.exchangeName {
            guard let exchange else {
                return .failure(
                    ShellError(
                        .usage,
                        "undefined variable '$\(name)'",
                        range: reference.range,
                        details: ["'$\(name)' is the last HTTP exchange: it is set once a command has made a request"]
                    )
                )
            }
            value = Exchange.value(of: exchange)
        } else if let stored = variables[name] {
            value = stored
        } else {
            return .failure(undefined(name, at: reference.range))
        }
        return walk(value, reference, from: 0)
    }

    /// A variable that was never set: a guess at a misspelt one, a setting's note, and how to set it.
    private func undefined(_ name: String, at range: SourceRange) -> ShellError {
        var message = "undefined variable '$\(name)'"
        let candidates = Array(variables.keys) + ["_"] + (exchange == nil ? [] : [Parser.exchangeName])
        if let guess = Suggest.closest(to: name, among: candidates) { message += " (did you mean '$\(guess)'?)" }
        if settingNames.contains(name) {
            message += "; '\(name)' is a setting: 'set' shows its value"
            return ShellError(.usage, message, range: range)
        }
        guard Parser.isVariableName(name) else { return ShellError(.usage, message, range: range) }
        return ShellError(.usage, message, range: range, details: [Self.setHint(name)])
    }

    /// How a variable gets a value: `set` in the script, or `--var` from outside.
    static func setHint(_ name: String) -> String {
        "set it with 'set \(name) VALUE', or pass it to the run with '--var \(name)=VALUE'"
    }

    /// `${env.NAME}`: the environment variable NAME (a string; an unset one is an error naming it).
    private func readEnvironment(_ reference: VariableReference) -> Result<JSONValue, ShellError> {
        guard case .key(let key)? = reference.path.components.first else {
            return .failure(
                ShellError(
                    .usage,
                    "'$\(Parser.environmentName)' reads the environment by name: write ${env.NAME}, e.g. ${env.HOME}",
                    range: reference.range
                )
            )
        }
        guard let text = environment[key] else {
            return .failure(
                ShellError(
                    .usage,
                    "environment variable '\(key)' is not set",
                    range: reference.range,
                    details: ["${env.\(key):-TEXT} gives TEXT when it is not set"],
                    code: .unsetEnvironment
                )
            )
        }
        return walk(.string(text), reference, from: 1)
    }

    /// Walks the path from component `start`; `[*]` maps the rest of the path over each element.
    private func walk(
        _ start: JSONValue,
        _ reference: VariableReference,
        from first: Int
    ) -> Result<JSONValue, ShellError> {
        var value = start
        let components = reference.path.components
        var index = first
        while index < components.count {
            let component = components[index]
            let step: ValuePathComponentKey
            switch component {
            case .key(let key): step = .key(key)
            case .index(let position): step = .index(position)
            case .all:
                let prefix = "${\(reference.name)\(ValuePath(Array(components.prefix(index))))}"
                guard case .array(let elements) = value else {
                    if value.isNull { return .success(.array([])) }
                    return .failure(
                        ShellError(
                            .failure,
                            "cannot read '[*]': \(prefix) is \(Self.describe(value)), not an array",
                            range: reference.range(throughComponent: index),
                            code: .missingValue
                        )
                    )
                }
                var collected: [JSONValue] = []
                for element in elements {
                    switch walk(element, reference, from: index + 1) {
                    case .success(.array(let inner)) where components[(index + 1)...].contains(.all):
                        collected += inner
                    case .success(let item): collected.append(item)
                    case .failure(let error): return .failure(error)
                    }
                }
                return .success(.array(collected))
            }
            guard let next = value.child(step) else {
                let range = reference.range(throughComponent: index)
                let prefix = "${\(reference.name)\(ValuePath(Array(components.prefix(index))))}"
                return .failure(
                    ShellError(
                        .failure,
                        Self.missingMessage(component, in: value, prefix: prefix),
                        range: range,
                        code: .missingValue
                    )
                )
            }
            value = next
            index += 1
        }
        return .success(value)
    }

    static func missingMessage(_ component: ValuePath.Component, in value: JSONValue, prefix: String) -> String {
        switch (component, value) {
        case (.key(let key), .object(let members)):
            var message = "no key '\(key)' in \(prefix)"
            if let guess = Suggest.closest(to: key, among: members.keys) {
                message += " (did you mean '\(guess)'?)"
            } else if !members.isEmpty {
                let keys = members.keys.sorted()
                message += " (keys: \(keys.prefix(8).joined(separator: ", "))\(keys.count > 8 ? ", …" : ""))"
            }
            return message
        case (.index(let position), .array(let elements)):
            return
                "index [\(position)] is out of range: \(prefix) has \(elements.count) element\(elements.count == 1 ? "" : "s")"
        case (.key(let key), _):
            return "cannot read '.\(key)': \(prefix) is \(describe(value)), not an object"
        case (.index(let position), _):
            return "cannot read '[\(position)]': \(prefix) is \(describe(value)), not an array"
        case (.all, _):
            return "cannot read '[*]': \(prefix) is \(describe(value)), not an array"
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array(let elements): return "an array of \(elements.count)"
        case .object: return "an object"
        }
    }
}

extension ErrorCode {
    /// A `${…}` path that leads nowhere.
    static let missingValue: ErrorCode = "MISSING_VALUE"
    /// `${env.NAME}` of a variable the environment does not have.
    static let unsetEnvironment: ErrorCode = "UNSET_ENVIRONMENT"
}
