import BTSLanguage

/// `textDocument/foldingRange`: each block and each branch of an `if` (from its keyword's line
/// to the line before the `elif`, `else` or `end` after it, which stays shown), and each run
/// of two or more lines holding only a comment. Blocks are read from the keywords at a
/// command's place, as `bts fmt` reads them: in a broken script the blocks that close fold,
/// one left open at the end does not.
enum FoldingRanges {
    /// The folding ranges of the script `highlights` were read from, whose lines `index` knows.
    static func of(_ highlights: ScriptHighlights, in index: LineIndex) -> [LanguageServerResults.FoldingRange] {
        of(blockWords: highlights.blockWords, comments: highlights.comments) { index.line(of: $0) }
    }

    /// The folding ranges of a script's block keywords and comments (in source order); `line`
    /// gives the line of a byte offset.
    static func of(
        blockWords: [ScriptHighlights.BlockWord],
        comments: [ScriptHighlights.Comment],
        line: (Int) -> Int
    ) -> [LanguageServerResults.FoldingRange] {
        var ranges: [LanguageServerResults.FoldingRange] = []
        func fold(_ start: Int, _ end: Int, _ kind: String? = nil) {
            if end > start { ranges.append(.init(startLine: start, endLine: end, kind: kind)) }
        }
        // The line where each open block's current branch starts.
        var open: [Int] = []
        for word in blockWords {
            let at = line(word.offset)
            switch word.role {
            case .open:
                open.append(at)
            case .divide:
                if let start = open.popLast() {
                    fold(start, at - 1)
                    open.append(at)
                }
            case .close:
                if let start = open.popLast() { fold(start, at - 1) }
            }
        }
        var run: (start: Int, end: Int)?
        for comment in comments where comment.alone {
            let at = line(comment.offset)
            if let current = run, current.end + 1 == at {
                run?.end = at
                continue
            }
            if let current = run { fold(current.start, current.end, "comment") }
            run = (at, at)
        }
        if let current = run { fold(current.start, current.end, "comment") }
        return ranges.sorted { ($0.startLine, $0.endLine) < ($1.startLine, $1.endLine) }
    }
}
