import BTSShell

#if canImport(Glibc)
import Glibc
#endif

/// `bts test --filter PATTERN`: which of the files found run. A pattern is a glob matched against
/// the whole path as listed (`tests/sub/a.bts`; a leading `./` of either is ignored), with
/// fnmatch(3) rules and no special `/`: `*` matches any run of characters, `/` included
/// (`*search*` is every path with `search` in it), `?` any one character, `[…]` one of a set.
/// With several patterns a file runs when it matches any; with none, every file runs.
package struct ScriptTestFilter: Sendable, Hashable {
    package var patterns: [String]

    package init(_ patterns: [String]) {
        self.patterns = patterns
    }

    /// Whether `path` runs.
    package func matches(_ path: String) -> Bool {
        guard !patterns.isEmpty else { return true }
        let subject = Self.withoutDotSlash(path)
        return patterns.contains { fnmatch(Self.withoutDotSlash($0), subject, 0) == 0 }
    }

    /// The files that run, in their order.
    package func select(_ files: [String]) -> [String] {
        files.filter(matches)
    }

    /// The sentence for a run that matched nothing: `no test file matches --filter '*dune*' (of 12
    /// found)`.
    package func nothingMatches(of found: Int) -> String {
        let quoted = patterns.map { "'\($0)'" }
        let spoken =
            quoted.count > 1 ? "any of --filter " + EnglishList.joined(quoted) : "--filter " + (quoted.first ?? "")
        return "no test file matches \(spoken) (of \(found) found)"
    }

    private static func withoutDotSlash(_ text: String) -> String {
        var text = Substring(text)
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        return String(text)
    }
}
