/// The type of a positional argument or option value, with its validation rules.
package enum ValueType: Sendable, Hashable {
    case string
    /// An integer, optionally limited to a range.
    case int(ClosedRange<Int>?)
    /// A number, optionally limited to a range.
    case double(ClosedRange<Double>?)
    /// One of fixed words (case-insensitive; the canonical spelling is kept).
    case enumeration([String])
    /// An option without value.
    case flag
    /// `1.5`, `500ms`, `2s`, `3m`, `1h` (a plain number is seconds).
    case duration
    /// A file path; `extensions` only guides completion.
    case path(extensions: [String])
    /// A command path: a command, then its subcommands (`help search title`); checked against the registry.
    case commandName
    /// A setting, or else a variable's name; the positional after it is checked against the
    /// setting's type (`set NAME VALUE`). Written literally, never with `$`.
    case settingName
    /// Names separated by commas, each one of fixed words, case-insensitive (`--columns title,year`:
    /// a table's headers; ``ColumnSelection``); the canonical spellings are kept, each once.
    case columnNames([String])

    /// What the value should be, for messages: `an integer 1–100`.
    package var expectation: String {
        switch self {
        case .string: return "a string"
        case .int(let range?): return "an integer \(range.lowerBound)–\(range.upperBound)"
        case .int(nil): return "an integer"
        case .double(let range?): return "a number \(Self.format(range.lowerBound))–\(Self.format(range.upperBound))"
        case .double(nil): return "a number"
        case .enumeration(let values): return "one of " + values.joined(separator: ", ")
        case .flag: return "no value"
        case .duration: return "a duration such as 500ms, 2s, 1.5, 3m or 1h, at most 24h"
        case .path: return "a file path"
        case .commandName: return "a command name"
        case .settingName: return "a setting or variable name"
        case .columnNames(let names): return ColumnSelection.expectation(names)
        }
    }

    /// The usage placeholder for an option of this type.
    package var defaultPlaceholder: String {
        switch self {
        case .int, .double: return "N"
        case .enumeration: return "VALUE"
        case .duration: return "DURATION"
        case .path: return "FILE"
        case .commandName: return "COMMAND"
        case .settingName: return "NAME"
        case .columnNames: return "NAME,…"
        case .string, .flag: return "VALUE"
        }
    }

    /// What TAB offers for a value of this type by default.
    package var defaultCompletion: CompletionKind {
        switch self {
        case .enumeration(let values): return .optionValue(values)
        case .path(let extensions): return .filePath(extensions: extensions)
        case .commandName: return .command
        case .settingName: return .setting
        case .columnNames(let names): return .columnNames(names)
        default: return .none
        }
    }

    /// Why a text was rejected.
    package enum Rejection: Error, Sendable, Hashable {
        /// Not of the type at all (`abc` for an integer).
        case invalid
        /// The right type but outside the allowed range.
        case outOfRange
        /// An unknown enumeration word; carries the closest valid one, if any.
        case unknownWord(suggestion: String?)
    }

    /// Converts text to a typed value.
    package func parse(_ text: String) -> Result<ArgumentValue, Rejection> {
        switch self {
        case .string: return .success(.string(text))
        case .path: return .success(.path(text))
        case .commandName, .settingName: return .success(.string(text))
        case .flag: return .success(.flag(true))
        case .int(let range):
            guard let value = Int(Self.trimmed(text)) else { return .failure(.invalid) }
            if let range, !range.contains(value) { return .failure(.outOfRange) }
            return .success(.int(value))
        case .double(let range):
            guard let value = Double(Self.trimmed(text)), value.isFinite else { return .failure(.invalid) }
            if let range, !range.contains(value) { return .failure(.outOfRange) }
            return .success(.double(value))
        case .enumeration(let values):
            if let match = values.first(where: { $0.lowercased() == text.lowercased() }) {
                return .success(.string(match))
            }
            return .failure(.unknownWord(suggestion: nil))
        case .columnNames(let names):
            return ColumnSelection.parse(text, among: names).map(ArgumentValue.string)
        case .duration:
            guard let duration = Self.parseDuration(text) else { return .failure(.invalid) }
            return .success(.duration(duration))
        }
    }

    /// Parses `1.5`, `500ms`, `2s`, `3m`, `1h` (non-negative, at most 24 h).
    package static func parseDuration(_ text: String) -> Duration? {
        let trimmed = Self.trimmed(text).lowercased()
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = trimmed
        var scale = 1.0
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            number = String(trimmed.dropLast(suffix.count))
            scale = factor
            break
        }
        guard !number.isEmpty, number.first != "+", let value = Double(number), value.isFinite, value >= 0 else {
            return nil
        }
        let seconds = value * scale
        guard seconds <= 86_400 else { return nil }
        let milliseconds = Int64((seconds * 1000).rounded())
        return .milliseconds(milliseconds)
    }

    /// `text` without leading and trailing spaces.
    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while scalars.first == " " { scalars = scalars.dropFirst() }
        while scalars.last == " " { scalars = scalars.dropLast() }
        return String(scalars)
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// A validated, typed value.
package enum ArgumentValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case flag(Bool)
    case duration(Duration)
    case path(String)

    package var description: String {
        switch self {
        case .string(let text), .path(let text): return text
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .flag(let value): return value ? "on" : "off"
        case .duration(let value):
            let milliseconds = value.components.seconds * 1000 + value.components.attoseconds / 1_000_000_000_000_000
            return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
        }
    }

    package var stringValue: String? {
        switch self {
        case .string(let text), .path(let text): return text
        default: return nil
        }
    }

    package var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }
}
