/// One failure a script reported as data, for `bts test`'s reports: where, what, and the lines
/// under it (both sides of an `expect`). A session records them when `recordsFailures` is set.
package struct ScriptTestFailure: Sendable, Hashable, Codable {
    /// The file the failure is in, as given or found.
    package var file: String
    /// The 1-based line, when known (a syntax error of the whole file may have none).
    package var line: Int?
    /// The 1-based column, when known.
    package var column: Int?
    /// The diagnostic's message, e.g. `expectation failed: ${_.totalCount} > 100`.
    package var message: String
    /// The lines under the message, e.g. `left:  12` and `right: 100`.
    package var details: [String]
    /// The error code, e.g. `EXPECT_FAILED`, `USAGE`, `NOT_FOUND`.
    package var code: String
    /// Which mistake of the check it is (``Diagnostic/Rule``, e.g. `unknown-command`), when the
    /// failure is a diagnostic; nil otherwise.
    package var rule: String?

    package init(
        file: String,
        line: Int? = nil,
        column: Int? = nil,
        message: String,
        details: [String] = [],
        code: String,
        rule: String? = nil
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.details = details
        self.code = code
        self.rule = rule
    }

    /// `file:line:col`, `file:line` or `file`, as far as the position is known.
    package var location: String {
        guard let line else { return file }
        guard let column else { return "\(file):\(line)" }
        return "\(file):\(line):\(column)"
    }
}
