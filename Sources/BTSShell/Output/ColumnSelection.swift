import BTSLanguage

/// `--columns NAME,…`: which of a table's columns are shown, and in which order, named by their
/// headers as shown (case-insensitive: `title,year`). Pure: the names are checked against the
/// command's columns before it runs (an unknown one is a usage error), then applied to its view.
package enum ColumnSelection {
    /// The names of `columns` as `--columns` takes them and completion offers them: each header in
    /// lower case, once, in table order.
    package static func names(of columns: [TableColumn]) -> [String] {
        var seen: Set<String> = []
        return columns.map { $0.title.lowercased() }.filter { seen.insert($0).inserted }
    }

    /// The names written in `text`: split at commas, spaces around each trimmed, empty ones left out.
    package static func words(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { ValueType.trimmed(String($0)) }
            .filter { !$0.isEmpty }
    }

    /// `text` checked against `names` (``names(of:)``): the names it chooses, in its order, each
    /// once, spelt as in `names` and joined with commas; for an unknown name, the list with the
    /// closest name in its place (when one is close) as the suggestion; nothing named is invalid.
    package static func parse(_ text: String, among names: [String]) -> Result<String, ValueType.Rejection> {
        let written = words(text)
        guard !written.isEmpty else { return .failure(.invalid) }
        var chosen: [String] = []
        var unknown = false
        var suggested: [String] = []
        for word in written {
            if let name = names.first(where: { $0 == word.lowercased() }) {
                if !chosen.contains(name) { chosen.append(name) }
                suggested.append(name)
            } else {
                unknown = true
                guard let guess = Suggest.closest(to: word.lowercased(), among: names) else {
                    return .failure(.unknownWord(suggestion: nil))
                }
                suggested.append(guess)
            }
        }
        guard !unknown else { return .failure(.unknownWord(suggestion: suggested.joined(separator: ","))) }
        return .success(chosen.joined(separator: ","))
    }

    /// `names` (as ``parse(_:among:)`` returned them, joined with commas) picked from `columns`, in
    /// the order named, each marked chosen (``TableColumn/isChosen``); a name this table lacks is
    /// left out (a search without scores has no SCORE).
    package static func pick(_ names: [String], from columns: [TableColumn]) -> [TableColumn] {
        names.compactMap { name in
            guard var column = columns.first(where: { $0.title.lowercased() == name.lowercased() }) else { return nil }
            column.isChosen = true
            return column
        }
    }

    /// The expectation help and messages state: `column names separated by commas, among isbn, title or year`.
    static func expectation(_ names: [String]) -> String {
        "column names separated by commas, among " + EnglishList.joined(names)
    }
}

extension ResultView {
    /// This view with every table cut to the columns `names` chooses (``ColumnSelection``), in
    /// that order; nil or empty: the view as it is. Among sections, a table that has none of them
    /// is left out (records and text stay); a chart's CSV rows keep the chosen columns it has.
    package func selectingColumns(_ names: [String]?) -> ResultView {
        guard let names, !names.isEmpty else { return self }
        switch self {
        case .table(let columns, let rowsKey, let footer, let empty):
            return .table(
                columns: ColumnSelection.pick(names, from: columns),
                rowsKey: rowsKey,
                footer: footer,
                empty: empty
            )
        case .sections(let views):
            return .sections(
                views.compactMap { view -> ResultView? in
                    guard case .table(let columns, _, _, _) = view else { return view }
                    return ColumnSelection.pick(names, from: columns).isEmpty ? nil : view.selectingColumns(names)
                }
            )
        case .chart(let drawing, let rows, let columns):
            let picked = ColumnSelection.pick(names, from: columns)
            return picked.isEmpty ? self : .chart(drawing, rows: rows, columns: picked)
        case .none, .text, .record:
            return self
        }
    }
}

extension ResolvedCommand {
    /// The column names `--columns` chose (checked against the command's columns when it was
    /// resolved), nil when it was not given or the command has no such option.
    var chosenColumns: [String]? {
        optionString(CommandSpec.columnsOptionName).map(ColumnSelection.words)
    }
}
