import BooksTrackContract

/// Job ids by prefix: `status 657a` names the one known job whose id starts with `657a`, as git and
/// docker take a unique prefix of an id. Pure: the ids known to the session in, the id (or a usage
/// error) out; ``SessionJobs/find(_:)`` is its one caller.
enum JobIDPrefix {
    /// The shortest prefix taken.
    static let minimumLength = 4
    /// The shortest abbreviation `jobs` shows on a terminal.
    static let minimumShownLength = 8
    /// How many of an ambiguous prefix's matches its error names.
    static let listedMatches = 5

    /// The id `reference` names among `known`: a known id whole; else the one known id it is a prefix
    /// of; else `reference` itself (a full id of a job this session does not know, from an earlier
    /// session on the server). A prefix of several known ids, or a reference shorter than
    /// ``minimumLength`` that is no known id, is a usage error.
    static func resolve(_ reference: String, among known: [String]) throws(ShellError) -> String {
        if known.contains(reference) { return reference }
        guard reference.count >= minimumLength else {
            throw ShellError(
                .usage,
                "job id '\(SessionJob.displayID(reference).trimmingQuotes)' is too short: a prefix of a job id needs at least \(minimumLength) characters ('jobs' lists them)",
                code: .jobPrefixTooShort
            )
        }
        var matches: [String] = []
        for id in known where id.hasPrefix(reference) && !matches.contains(id) { matches.append(id) }
        switch matches.count {
        case 0:
            return reference
        case 1:
            return matches[0]
        default:
            let listed = matches.prefix(listedMatches).map(SessionJob.displayID).joined(separator: ", ")
            let more = matches.count > listedMatches ? " and \(matches.count - listedMatches) more" : ""
            throw ShellError(
                .usage,
                "job id prefix '\(SessionJob.displayID(reference).trimmingQuotes)' is ambiguous: it matches \(matches.count) jobs: \(listed)\(more)",
                code: .ambiguousJob
            )
        }
    }

    /// The length `jobs` cuts every id to on a terminal: the shortest, at least
    /// ``minimumShownLength``, at which no two distinct ids share their prefix (git's abbreviated ids).
    static func shownLength(of ids: [String]) -> Int {
        let distinct = Array(Set(ids))
        let longest = distinct.map(\.count).max() ?? 0
        var length = minimumShownLength
        while length < longest, Set(distinct.map { $0.prefix(length) }).count < distinct.count { length += 1 }
        return length
    }
}

extension String {
    /// `'x'` → `x` (``SessionJob/displayID(_:)`` quotes an implausible id; the message quotes it once).
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}

extension ErrorCode {
    /// A job id prefix shorter than ``JobIDPrefix/minimumLength``.
    static let jobPrefixTooShort: ErrorCode = "JOB_PREFIX_TOO_SHORT"
    /// A job id prefix that starts more than one known job's id.
    static let ambiguousJob: ErrorCode = "AMBIGUOUS_JOB"
}
