import BTSShell
import BooksTrackContract

extension ScriptTestRun {
    /// The run as JSON, with a final newline: a ``ScriptTestJSONReport`` (its schema) with sorted
    /// keys and two-space indents (`JSONValue.prettyJSON`).
    package func json() -> String {
        JSONValue.encoding(ScriptTestJSONReport(self)).prettyJSON + "\n"
    }
}
