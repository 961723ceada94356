import BTSLanguage

/// An integer option whose value is always there: the one given, else the default declared with
/// it. The default is stated once, here, and both the spec (help, the reference) and the typed read
/// (`resolved[option]`) take it from this declaration.
struct IntOption: Sendable {
    let spec: OptionSpec
    let defaultValue: Int

    /// `help` ends with the default: `… (default 20)`.
    init(_ long: String, short: Character? = nil, range: ClosedRange<Int>, default value: Int, help: String) {
        spec = OptionSpec(
            long,
            short: short,
            type: .int(range),
            default: .int(value),
            help: "\(help) (default \(value))"
        )
        defaultValue = value
    }
}

extension ResolvedCommand {
    /// The option's value as given, else its declared default.
    subscript(option: IntOption) -> Int { bound(option.spec)?.value?.value?.intValue ?? option.defaultValue }
}

/// Arguments and options several commands share.
extension CommandSpec {
    static func limit(_ range: ClosedRange<Int>, default value: Int) -> IntOption {
        IntOption(
            "limit",
            short: "n",
            range: range,
            default: value,
            help: "Maximum number of results, \(range.lowerBound)–\(range.upperBound)"
        )
    }

    static let watchOption = OptionSpec(
        "watch",
        short: "w",
        type: .flag,
        help: "Follow the job's progress live, then show its results"
    )

    static let jobArgument = ArgumentSpec("JOB", "A job id, or 'last' for the most recent job", completion: .jobID)

    /// `--columns NAME,…` of a command whose result is a table of `columns` (every column it may
    /// show): which columns, in which order (``ColumnSelection``). Help, completion and the
    /// reference read the names from here; the shell applies the choice to the command's view.
    static func columnsOption(_ columns: [TableColumn]) -> OptionSpec {
        let names = ColumnSelection.names(of: columns)
        return OptionSpec(
            columnsOptionName,
            type: .columnNames(names),
            help: "Show these columns in this order: \(names.joined(separator: ", ")) "
                + "(table, csv and markdown; json and ndjson keep everything)"
        )
    }

    /// The long name of ``columnsOption(_:)``, as the shell reads the choice back.
    static let columnsOptionName = "columns"
}

/// A command whose one argument is a job id or `last` (`status`, `results`, `cancel`).
protocol JobCommand: ShellCommand {
    init(job: String?)
}

extension JobCommand {
    init(_ resolved: ResolvedCommand) {
        self.init(job: resolved.string(CommandSpec.jobArgument))
    }
}
