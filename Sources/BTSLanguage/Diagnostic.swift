/// A problem found in command text, as plain data. Render it with ``DiagnosticRenderer``.
package struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
    /// How bad it is.
    package enum Severity: String, Sendable, Hashable {
        case error, warning, note
    }

    /// A secondary message, optionally pointing somewhere else.
    package struct Note: Sendable, Hashable {
        package var message: String
        package var range: SourceRange?

        package init(_ message: String, range: SourceRange? = nil) {
            self.message = message
            self.range = range
        }
    }

    /// A machine-applicable correction: replace `range` with `replacement`.
    package struct FixIt: Sendable, Hashable {
        package var range: SourceRange
        package var replacement: String

        package init(range: SourceRange, replacement: String) {
            self.range = range
            self.replacement = replacement
        }
    }

    package var severity: Severity
    package var message: String
    /// Which mistake it is (``Rule``): what the check's reports and the language server name it by.
    package var rule: Rule
    package var range: SourceRange
    package var notes: [Note]
    /// A suggested replacement (e.g. the "did you mean" option name).
    package var fixIt: FixIt?
    /// True when the input merely stopped too early (unclosed quote, `${`, trailing backslash):
    /// a REPL should read another line instead of reporting the error.
    package var isIncompleteInput: Bool

    package init(
        _ severity: Severity = .error,
        _ message: String,
        rule: Rule,
        range: SourceRange,
        notes: [Note] = [],
        fixIt: FixIt? = nil,
        isIncompleteInput: Bool = false
    ) {
        self.severity = severity
        self.message = message
        self.rule = rule
        self.range = range
        self.notes = notes
        self.fixIt = fixIt
        self.isIncompleteInput = isIncompleteInput
    }

    /// Shorthand for an error.
    package static func error(
        _ message: String,
        rule: Rule,
        at range: SourceRange,
        notes: [Note] = [],
        fixIt: FixIt? = nil
    ) -> Diagnostic {
        Diagnostic(.error, message, rule: rule, range: range, notes: notes, fixIt: fixIt)
    }

    package var description: String { "\(severity.rawValue): \(message) [\(rule.rawValue)] @\(range)" }

    /// The same diagnostic `delta` bytes further on: its range, its notes' and its fix's (what the
    /// same mistake elsewhere gives, when nothing but its place differs).
    package func shifted(by delta: Int) -> Diagnostic {
        var moved = self
        moved.range.offset += delta
        moved.fixIt?.range.offset += delta
        for index in moved.notes.indices { moved.notes[index].range?.offset += delta }
        return moved
    }
}

extension Array where Element == Diagnostic {
    /// Whether any element is an error (warnings and notes do not stop a script).
    package var containsErrors: Bool { contains { $0.severity == .error } }
}

/// A non-empty list of diagnostics used as the failure of a `Result`.
package struct Diagnostics: Error, Sendable, Hashable, RandomAccessCollection {
    package var all: [Diagnostic]

    package init(_ all: [Diagnostic]) {
        self.all = all.sorted { $0.range.offset < $1.range.offset }
    }

    package var startIndex: Int { all.startIndex }
    package var endIndex: Int { all.endIndex }
    package subscript(position: Int) -> Diagnostic { all[position] }

    /// The messages, in source order (handy in tests and logs).
    package var messages: [String] { all.map(\.message) }
}
