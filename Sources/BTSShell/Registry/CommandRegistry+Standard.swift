import BTSLanguage

extension CommandRegistry {
    /// The registry of every bts command (docs/commands.md), built from the command types.
    package static let standard = CommandRegistry(
        commands: CommandTable.all.map { $0.spec },
        settings: standardSettings
    )

    /// Settings of `set NAME VALUE`.
    package static let standardSettings: [SettingSpec] = [
        SettingSpec(
            "output",
            type: .enumeration(OutputFormat.names),
            help: "Output format: \(OutputFormat.spokenList)",
            default: "table on a terminal, else json"
        ),
        SettingSpec(
            "color",
            type: .enumeration(["on", "off", "auto"]),
            help: "Colour output (auto: on a terminal unless NO_COLOR is set)",
            default: "auto"
        ),
        SettingSpec(
            "timing",
            type: .enumeration(["on", "off"]),
            help: "Print how long each command took",
            default: "off"
        ),
        SettingSpec(
            "wait",
            type: .enumeration(["on", "off"]),
            help:
                "Wait (with a countdown) when a rate-limit budget is spent, instead of failing with exit \(ExitStatus.rateLimited.rawValue)",
            default: "on"
        ),
        SettingSpec(
            "onerror",
            type: .enumeration(["stop", "continue"]),
            help: "Whether a script stops at the first failing command",
            default: "stop"
        ),
        SettingSpec(
            "pager",
            type: .enumeration(["on", "off"]),
            help: "Page interactive output taller than the terminal through $PAGER (default 'less -FRX')",
            default: "on"
        ),
        SettingSpec(
            "progress",
            type: .enumeration(["on", "off", "auto"]),
            help: "Progress bars, spinners, retry lines and countdowns on stderr (auto: only when stderr is a "
                + "terminal; on: also elsewhere, job events as JSON lines; --quiet silences them)",
            default: "auto"
        ),
        SettingSpec(
            "offline",
            type: .enumeration(["cache", "never"]),
            help:
                "When the server cannot be reached, answer lookups from the cache or the library (exit \(ExitStatus.ok.rawValue), "
                + "a note on stderr), or never (exit \(ExitStatus.network.rawValue))",
            default: "cache"
        ),
        SettingSpec(
            "library",
            type: .enumeration(["default", "scratch"]),
            help: "The library the library commands, save, import and scans use: yours, or a scratch library "
                + "that starts empty and is deleted when bts exits (examples and demos leave yours alone)",
            default: "default"
        ),
        SettingSpec(
            "looplimit",
            type: .int(ShellSettings.loopLimits),
            help: "How many rounds a 'while' loop may run before it stops with an error (a runaway loop)",
            default: String(ShellSettings.defaultLoopLimit)
        ),
        SettingSpec(
            "expanded",
            type: .enumeration(["on", "off", "auto"]),
            help: "Show a table's rows as blocks of 'FIELD  value' lines on a terminal (on; auto: only when the "
                + "table cannot fit the width without cutting TITLE below \(ResultRenderer.expandedTitleMinimum) columns)",
            default: "auto"
        ),
    ]
}
