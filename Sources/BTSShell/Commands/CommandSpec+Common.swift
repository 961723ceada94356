import BTSLanguage

/// Arguments and options several commands share.
extension CommandSpec {
    static func limit(_ range: ClosedRange<Int>, default value: Int) -> OptionSpec {
        OptionSpec("limit", short: "n", type: .int(range), default: .int(value),
                   help: "Maximum number of results, \(range.lowerBound)–\(range.upperBound) (default \(value))")
    }

    static let watchOption = OptionSpec(
        "watch", short: "w", type: .flag, help: "Follow the job's progress live, then show its results")

    static let jobArgument = ArgumentSpec("JOB", "A job id, or 'last' for the most recent job", completion: .jobID)
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
