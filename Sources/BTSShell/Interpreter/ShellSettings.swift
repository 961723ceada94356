/// The settings changed with `set NAME VALUE` (and the global options).
package struct ShellSettings: Sendable, Hashable {
    package enum Toggle: String, Sendable, Hashable { case on, off, auto }
    package enum OnError: String, Sendable, Hashable { case stop, `continue` }

    /// nil: table on a terminal, json otherwise.
    package var output: OutputFormat?
    package var color: Toggle = .auto
    package var timing = false
    /// Wait (with a countdown) for a spent budget instead of failing with exit 5.
    package var wait = true
    package var onError: OnError = .stop
    /// Page interactive output taller than the terminal (`$PAGER`, default `less -FRX`).
    package var pager = true
    /// Progress on stderr (bars, spinners, retry lines, countdowns): `auto` only on a terminal.
    package var progress: Toggle = .auto
    /// Silence human messages (progress, warnings, countdowns) on stderr.
    package var quiet = false
    /// Print each request/response (secrets masked) on stderr.
    package var trace = false
    /// Answer lookups from the disk cache (or the library) when the server cannot be reached
    /// (`set offline cache`, the default); `never`: fail with exit 3 instead.
    package var answersOffline = true
    /// Which library the library commands use: the reader's own, or a scratch one that lives in a
    /// temporary directory until the process ends (`set library scratch`: examples and demos).
    package var library: LibraryChoice = .yours
    /// How many rounds a `while` loop may run before it is stopped as a runaway (`set looplimit N`).
    package var loopLimit = ShellSettings.defaultLoopLimit
    /// Tables as one block of `FIELD  value` lines per row (`set expanded`): `auto` when a table
    /// cannot fit the terminal without cutting the title short.
    package var expanded: Toggle = .auto

    /// `looplimit`'s default: generous for paging and polling, still a bound.
    package static let defaultLoopLimit = 100_000
    /// The values `set looplimit` accepts.
    package static let loopLimits = 1...100_000_000

    /// `set library default|scratch`.
    package enum LibraryChoice: String, Sendable, Hashable {
        case yours = "default"
        case scratch
    }

    package init() {}

    /// The value of a setting as `set` shows it.
    package func value(of name: String) -> String? {
        switch name {
        case "output": return output?.rawValue ?? "auto"
        case "color": return color.rawValue
        case "timing": return timing ? "on" : "off"
        case "wait": return wait ? "on" : "off"
        case "onerror": return onError.rawValue
        case "pager": return pager ? "on" : "off"
        case "progress": return progress.rawValue
        case "offline": return answersOffline ? "cache" : "never"
        case "library": return library.rawValue
        case "looplimit": return String(loopLimit)
        case "expanded": return expanded.rawValue
        default: return nil
        }
    }

    /// Applies a validated setting; returns false for an unknown name or value.
    package mutating func apply(_ name: String, _ value: String) -> Bool {
        switch name {
        case "output":
            guard let format = OutputFormat(rawValue: value.lowercased()) else { return false }
            output = format
        case "color":
            guard let toggle = Toggle(rawValue: value.lowercased()) else { return false }
            color = toggle
        case "timing":
            guard let on = Self.bool(value) else { return false }
            timing = on
        case "wait":
            guard let on = Self.bool(value) else { return false }
            wait = on
        case "onerror":
            guard let mode = OnError(rawValue: value.lowercased()) else { return false }
            onError = mode
        case "pager":
            guard let on = Self.bool(value) else { return false }
            pager = on
        case "progress":
            guard let toggle = Toggle(rawValue: value.lowercased()) else { return false }
            progress = toggle
        case "offline":
            switch value.lowercased() {
            case "cache": answersOffline = true
            case "never": answersOffline = false
            default: return false
            }
        case "library":
            guard let choice = LibraryChoice(rawValue: value.lowercased()) else { return false }
            library = choice
        case "looplimit":
            guard let limit = Int(value), Self.loopLimits.contains(limit) else { return false }
            loopLimit = limit
        case "expanded":
            guard let toggle = Toggle(rawValue: value.lowercased()) else { return false }
            expanded = toggle
        default:
            return false
        }
        return true
    }

    /// `color auto` on a terminal: colour unless `--no-color`, `NO_COLOR` (set and not empty) or `TERM=dumb`.
    package static func autoColor(noColor: Bool, environment: [String: String]) -> Bool {
        !noColor && (environment["NO_COLOR"].map(\.isEmpty) ?? true) && environment["TERM"] != "dumb"
    }

    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: return nil
        }
    }
}
