/// What `every DURATION [--count N] [--fail] COMMAND…` asks for, read from its words (pure: the
/// command and the script check both read it).
struct EveryPlan: Sendable, Hashable {
    /// The shortest interval between two runs.
    static let minimumInterval: Duration = .seconds(1)
    /// ``minimumInterval`` as an interval is written: `1s`, or in milliseconds (`500ms`) when it is
    /// not whole seconds (durations are read to the millisecond).
    static var minimumText: String {
        let milliseconds = Int64((minimumInterval / .milliseconds(1)).rounded())
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    /// The interval between the end of one run and the start of the next.
    var interval: Duration
    /// The interval as written (`5s`), for the header.
    var intervalText: String
    /// Stop after this many runs; nil: until Ctrl-C.
    var count: Int?
    /// Stop at the first failing run (with its status).
    var stopsOnFailure: Bool
    /// The command line to run, as bts reads it (`;` separates commands).
    var commandLine: String

    /// One word of the call: its text when literal (nil when it reads a variable), its form to
    /// run again (quoted as needed), and whether it was quoted.
    struct Word: Sendable, Hashable {
        var literal: String?
        var script: String
        var isQuoted: Bool
    }

    /// Reads the words after `every`; the error is one sentence.
    static func parse(_ words: [Word]) -> Result<EveryPlan, EveryPlanError> {
        guard let first = words.first else { return .failure(.missingInterval) }
        guard let text = first.literal else { return .failure(.intervalNotLiteral) }
        guard let interval = ValueType.parseDuration(text) else { return .failure(.badInterval(text)) }
        guard interval >= minimumInterval else { return .failure(.intervalTooShort(text)) }
        var plan = EveryPlan(interval: interval, intervalText: text, count: nil, stopsOnFailure: false, commandLine: "")
        var rest = words.dropFirst()
        while let word = rest.first, !word.isQuoted, let option = word.literal, option.hasPrefix("--") {
            rest = rest.dropFirst()
            if option == "--" { break }
            if option == "--fail" {
                plan.stopsOnFailure = true
                continue
            }
            var value: String?
            if option == "--count" {
                value = rest.first?.literal
                rest = rest.dropFirst()
            } else if option.hasPrefix("--count=") {
                value = String(option.dropFirst("--count=".count))
            } else {
                return .failure(.unknownOption(option))
            }
            guard let value, let count = Int(value), count >= 1 else { return .failure(.badCount) }
            plan.count = count
        }
        guard !rest.isEmpty else { return .failure(.missingCommand) }
        plan.commandLine =
            rest.count == 1 && rest.first?.isQuoted == true
            ? rest.map { $0.literal ?? $0.script }.joined()
            : rest.map(\.script).joined(separator: " ")
        return .success(plan)
    }

    /// `Every 5s: limits — 07:31:02`.
    func header(at time: String) -> String {
        "Every \(intervalText): \(commandLine) — \(time)"
    }
}

/// What is wrong with `every`'s words.
enum EveryPlanError: Error, Sendable, Hashable {
    case missingInterval
    case intervalNotLiteral
    case badInterval(String)
    case intervalTooShort(String)
    case unknownOption(String)
    case badCount
    case missingCommand

    var sentence: String {
        switch self {
        case .missingInterval: return "every needs an interval and a command, such as: every 5s limits"
        case .intervalNotLiteral: return "every's interval must be written out (such as 5s), not read from a variable"
        case .badInterval(let text):
            return "'\(text)' is not an interval (expected a duration such as 2s, 1.5, 3m or 1h)"
        case .intervalTooShort(let text):
            return "'\(text)' is too short: every waits at least \(EveryPlan.minimumText) between runs"
        case .unknownOption(let option):
            return "unknown option '\(option)' for 'every' (its options, --count N and --fail, come before the command)"
        case .badCount: return "--count needs a whole number of runs, 1 or more"
        case .missingCommand: return "every needs a command to run after its interval, such as: every 5s limits"
        }
    }
}
