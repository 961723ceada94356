/// How the lines of `bts fmt`'s output line up with the lines of the script it formatted, for
/// formatting a range of lines. The formatter rewrites only the blanks between words, `;` at a
/// line's end and line continuations, and turns runs of blank lines into one: so a line's bytes
/// without blanks, `;` and `\` (its key) are the same, in order, on both sides. Lines are paired
/// in groups whose keys join to the same bytes: most groups are one line and its formatted line;
/// a group of blank lines may become one or none; lines the formatter joins make one group.
enum FormattedLines {
    /// Original lines `original` are formatted as lines `formatted`.
    struct Group: Equatable {
        var original: Range<Int>
        var formatted: Range<Int>
    }

    /// The groups of `original`'s lines and `formatted`'s (each without its line break), in
    /// order, covering both. Should the keys ever differ, the lines from there to the end are one group.
    static func groups(original: [ArraySlice<UInt8>], formatted: [ArraySlice<UInt8>]) -> [Group] {
        var groups: [Group] = []
        var (i, j) = (0, 0)
        while i < original.count || j < formatted.count {
            let (blankI, blankJ) = (i, j)
            while i < original.count, key(original[i]).isEmpty { i += 1 }
            while j < formatted.count, key(formatted[j]).isEmpty { j += 1 }
            if blankI < i || blankJ < j { groups.append(Group(original: blankI..<i, formatted: blankJ..<j)) }
            guard i < original.count, j < formatted.count else {
                if i < original.count || j < formatted.count {
                    groups.append(Group(original: i..<original.count, formatted: j..<formatted.count))
                }
                break
            }
            let (startI, startJ) = (i, j)
            var left = key(original[i])
            var right = key(formatted[j])
            (i, j) = (i + 1, j + 1)
            while left.count != right.count {
                if left.count < right.count, i < original.count {
                    left += key(original[i])
                    i += 1
                } else if right.count < left.count, j < formatted.count {
                    right += key(formatted[j])
                    j += 1
                } else {
                    break
                }
            }
            guard left == right else {
                groups.append(Group(original: startI..<original.count, formatted: startJ..<formatted.count))
                break
            }
            groups.append(Group(original: startI..<i, formatted: startJ..<j))
        }
        return groups
    }

    /// A line's bytes without blanks, `\r`, `;` and `\`.
    static func key(_ line: ArraySlice<UInt8>) -> [UInt8] {
        line.filter { $0 != 32 && $0 != 9 && $0 != 13 && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "\\") }
    }
}
