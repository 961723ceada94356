import BTSTerminalText

/// A unified diff as `diff -u` writes it (what `bts fmt --diff` prints, and `patch -p1` applies):
/// `--- OLD` and `+++ NEW` headers, then hunks with `context` unchanged lines around each change,
/// hunks whose changes are at most twice that apart joined into one, each change's removed lines
/// before its added ones, and `\ No newline at end of file` after a last line without one.
/// Lines are compared byte for byte. The edit script is a shortest one (Myers) while it takes at
/// most `maxEdits` edits; past that, the lines between the first and the last difference are
/// replaced whole (a longer diff, still exact, and bounded in time and memory).
package enum UnifiedDiff {
    /// The most edits a shortest edit script is looked for with (past it, the middle is replaced whole).
    package static let maxEdits = 1_000

    /// A run of lines `old[oldLower..<oldUpper]` replaced by `new[newLower..<newUpper]`.
    struct Change: Equatable {
        var oldLower: Int, oldUpper: Int
        var newLower: Int, newUpper: Int
    }

    /// The diff of `old` to `new` ("" when they are the same).
    package static func make(
        old: String,
        new: String,
        oldName: String,
        newName: String,
        context: Int = 3,
        maxEdits: Int = maxEdits
    ) -> String {
        let oldLines = lines(of: old)
        let newLines = lines(of: new)
        // Each distinct line (its bytes, its newline included) as a number: compared exactly and fast.
        var numbers: [[UInt8]: Int] = [:]
        func number(_ line: [UInt8]) -> Int {
            if let known = numbers[line] { return known }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
        let a = oldLines.map(number)
        let b = newLines.map(number)
        let found = changes(a, b, maxEdits: maxEdits)
        guard !found.isEmpty else { return "" }
        var output = "--- \(oldName)\n+++ \(newName)\n"
        for group in groups(found, context: context) {
            output += hunk(group, old: oldLines, new: newLines, context: context)
        }
        return output
    }

    /// The text's lines, each with its `\n` (the last one may have none).
    static func lines(of text: String) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in text.utf8 {
            current.append(byte)
            if byte == UInt8(ascii: "\n") {
                lines.append(current)
                current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The changes that turn `a` into `b`, in order.
    static func changes(_ a: [Int], _ b: [Int], maxEdits: Int = maxEdits) -> [Change] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        let whole = Change(oldLower: prefix, oldUpper: a.count - suffix, newLower: prefix, newUpper: b.count - suffix)
        if whole.oldLower == whole.oldUpper, whole.newLower == whole.newUpper { return [] }
        let middleA = Array(a[whole.oldLower..<whole.oldUpper])
        let middleB = Array(b[whole.newLower..<whole.newUpper])
        guard !middleA.isEmpty, !middleB.isEmpty, let matches = matches(middleA, middleB, maxEdits: maxEdits) else {
            return [whole]
        }
        // The gaps between matched lines are the changes.
        var result: [Change] = []
        var (x, y) = (0, 0)
        for (matchX, matchY) in matches + [(middleA.count, middleB.count)] {
            if matchX > x || matchY > y {
                result.append(
                    Change(
                        oldLower: prefix + x,
                        oldUpper: prefix + matchX,
                        newLower: prefix + y,
                        newUpper: prefix + matchY
                    )
                )
            }
            (x, y) = (matchX + 1, matchY + 1)
        }
        return result
    }

    /// The pairs of equal lines of a shortest edit script (Myers' greedy algorithm), in order; nil
    /// when it needs more than `maxEdits` edits.
    static func matches(_ a: [Int], _ b: [Int], maxEdits: Int) -> [(Int, Int)]? {
        let (n, m) = (a.count, b.count)
        let limit = min(n + m, maxEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        // Each step's furthest points on diagonals -d…d (what the way back reads): about d² in all.
        var trace: [[Int]] = []
        var edits: Int?
        search: for d in 0...limit {
            trace.append(Array(v[(offset - d)...(offset + d)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])
                    ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m {
                    edits = d
                    break search
                }
            }
        }
        guard let edits else { return nil }
        // Back from the end: each step's diagonal run is a run of matches.
        var pairs: [(Int, Int)] = []
        var (x, y) = (n, m)
        for d in stride(from: edits, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = k == -d || (k != d && v[d + k - 1] < v[d + k + 1]) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : v[d + previousK]
            let previousY = d == 0 ? 0 : previousX - previousK
            // The run started where the step from (previousX, previousY) ended.
            let startX = d == 0 ? 0 : (previousK == k + 1 ? previousX : previousX + 1)
            while x > startX {
                x -= 1
                y -= 1
                pairs.append((x, y))
            }
            (x, y) = (previousX, previousY)
        }
        return pairs.reversed()
    }

    /// The changes grouped into hunks: a gap of at most `2 × context` unchanged lines joins two.
    static func groups(_ changes: [Change], context: Int) -> [[Change]] {
        var groups: [[Change]] = []
        for change in changes {
            if let last = groups.last?.last, change.oldLower - last.oldUpper <= 2 * context {
                groups[groups.count - 1].append(change)
            } else {
                groups.append([change])
            }
        }
        return groups
    }

    /// One hunk: its `@@` line and its lines.
    static func hunk(_ group: [Change], old: [[UInt8]], new: [[UInt8]], context: Int) -> String {
        guard let first = group.first, let last = group.last else { return "" }
        // Before the first change and after the last, old and new lines are the same ones.
        let lead = min(context, first.oldLower)
        let trail = min(context, old.count - last.oldUpper)
        let oldLower = first.oldLower - lead
        let oldUpper = last.oldUpper + trail
        let newLower = first.newLower - lead
        let newUpper = last.newUpper + trail
        var text = "@@ -\(range(oldLower, oldUpper)) +\(range(newLower, newUpper)) @@\n"
        var position = oldLower
        for change in group {
            for index in position..<change.oldLower { text += line(" ", old[index]) }
            for index in change.oldLower..<change.oldUpper { text += line("-", old[index]) }
            for index in change.newLower..<change.newUpper { text += line("+", new[index]) }
            position = change.oldUpper
        }
        for index in position..<oldUpper { text += line(" ", old[index]) }
        return text
    }

    /// `diff -u`'s range: `START,COUNT`, `START` alone for one line, the line before for none.
    static func range(_ lower: Int, _ upper: Int) -> String {
        switch upper - lower {
        case 0: return "\(lower),0"
        case 1: return "\(lower + 1)"
        default: return "\(lower + 1),\(upper - lower)"
        }
    }

    private static func line(_ mark: String, _ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return mark + (bytes.last == UInt8(ascii: "\n") ? text : text + "\n\\ No newline at end of file\n")
    }
}

extension UnifiedDiff {
    /// A diff (or a file name) as a terminal shows it: a script's control characters made visible by
    /// ``TerminalText`` (piped, a diff stays exact, for `patch`).
    package static func forTerminal(_ text: String) -> String { TerminalText.sanitize(text) }
}
