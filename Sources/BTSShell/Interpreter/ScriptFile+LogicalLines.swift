import BTSLanguage

extension ScriptFile {
    /// `text` cut into logical lines: each starts at the returned line number and runs on while
    /// ``Parser/isComplete(_:)`` says it is unfinished (an open quote, a trailing `\`, a block).
    static func logicalLines(_ text: String) -> [(line: Int, text: String)] {
        var chunks: [(line: Int, text: String)] = []
        var pending: [Substring] = []
        var start = 1
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if pending.isEmpty { start = index + 1 }
            pending.append(line)
            let joined = pending.joined(separator: "\n")
            if Parser.isComplete(joined) || index == lines.count - 1 {
                chunks.append((start, joined))
                pending = []
            }
        }
        return chunks
    }
}
