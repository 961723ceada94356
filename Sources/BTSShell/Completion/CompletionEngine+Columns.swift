/// TAB after `--columns ` (or `--columns=`) and after a comma in its list: the command's column
/// names (``ColumnSelection``) not yet in the list, each as the whole word it completes
/// (`title,ye` → `title,year`).
extension CompletionEngine {
    func columnAnswer(_ names: [String], partial: String, range: Range<Int>) -> CompletionAnswer {
        var head = ""
        var list = Substring(partial)
        if partial.hasPrefix("-"), let equals = partial.firstIndex(of: "=") {
            head = String(partial[...equals])
            list = partial[partial.index(after: equals)...]
        }
        var tail = list
        if let comma = list.lastIndex(of: ",") {
            head += list[...comma]
            tail = list[list.index(after: comma)...]
        }
        let chosen = Set(ColumnSelection.words(String(list.dropLast(tail.count))).map { $0.lowercased() })
        let offered = names.filter { !chosen.contains($0) && $0.hasPrefix(tail.lowercased()) }
        return CompletionAnswer(
            range: range,
            candidates: offered.map { head + $0 },
            display: head.isEmpty ? nil : offered
        )
    }
}
