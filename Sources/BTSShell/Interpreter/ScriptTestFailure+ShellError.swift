import BTSLanguage
import BTSTerminalText
import BooksTrackContract

extension ScriptTestFailure {
    /// The failures an error reports: one per diagnostic of a syntax error, else one, at the
    /// place it points to in `source` (messages neutralised as on the terminal).
    static func from(_ error: ShellError, in source: SourceFile?) -> [ScriptTestFailure] {
        let file = source?.name ?? ""
        func place(_ range: SourceRange?) -> (line: Int?, column: Int?) {
            guard let source, let range, error.pointsIntoSource else { return (nil, nil) }
            let location = source.location(of: range.offset)
            return (location.line, location.column)
        }
        func clean(_ text: String) -> String { TerminalText.sanitize(text, lines: .flatten) }
        if !error.diagnostics.isEmpty {
            return error.diagnostics.filter { $0.severity == .error }.map { diagnostic in
                let (line, column) = place(diagnostic.range)
                return ScriptTestFailure(
                    file: file,
                    line: line,
                    column: column,
                    message: clean(diagnostic.message),
                    details: diagnostic.notes.map { clean($0.message) },
                    code: error.code.rawValue,
                    rule: CheckFinding.rule(of: diagnostic)
                )
            }
        }
        let (line, column) = place(error.range)
        return [
            ScriptTestFailure(
                file: file,
                line: line,
                column: column,
                message: clean(error.message),
                details: error.details.map(clean),
                code: error.code.rawValue
            )
        ]
    }
}
