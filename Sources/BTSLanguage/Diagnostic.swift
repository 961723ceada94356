/// A problem found in command text, as plain data. Render it with ``DiagnosticRenderer``.
public struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable {
        case error, warning, note
    }

    /// A secondary message, optionally pointing somewhere else.
    public struct Note: Sendable, Hashable {
        public var message: String
        public var range: SourceRange?

        public init(_ message: String, range: SourceRange? = nil) {
            self.message = message
            self.range = range
        }
    }

    /// A machine-applicable correction: replace `range` with `replacement`.
    public struct FixIt: Sendable, Hashable {
        public var range: SourceRange
        public var replacement: String

        public init(range: SourceRange, replacement: String) {
            self.range = range
            self.replacement = replacement
        }
    }

    public var severity: Severity
    public var message: String
    public var range: SourceRange
    public var notes: [Note]
    /// A suggested replacement (e.g. the "did you mean" option name).
    public var fixIt: FixIt?
    /// True when the input merely stopped too early (unclosed quote, `${`, trailing backslash):
    /// a REPL should read another line instead of reporting the error.
    public var isIncompleteInput: Bool

    public init(
        _ severity: Severity = .error,
        _ message: String,
        range: SourceRange,
        notes: [Note] = [],
        fixIt: FixIt? = nil,
        isIncompleteInput: Bool = false
    ) {
        self.severity = severity
        self.message = message
        self.range = range
        self.notes = notes
        self.fixIt = fixIt
        self.isIncompleteInput = isIncompleteInput
    }

    /// Shorthand for an error.
    public static func error(
        _ message: String, at range: SourceRange, notes: [Note] = [], fixIt: FixIt? = nil
    ) -> Diagnostic {
        Diagnostic(.error, message, range: range, notes: notes, fixIt: fixIt)
    }

    public var description: String { "\(severity.rawValue): \(message) @\(range)" }

    /// The same diagnostic `delta` bytes further on: its range, its notes' and its fix's (what the
    /// same mistake elsewhere gives, when nothing but its place differs).
    public func shifted(by delta: Int) -> Diagnostic {
        var moved = self
        moved.range.offset += delta
        moved.fixIt?.range.offset += delta
        for index in moved.notes.indices { moved.notes[index].range?.offset += delta }
        return moved
    }
}

extension Array where Element == Diagnostic {
    /// Whether any element is an error (warnings and notes do not stop a script).
    public var containsErrors: Bool { contains { $0.severity == .error } }
}

/// A non-empty list of diagnostics used as the failure of a `Result`.
public struct Diagnostics: Error, Sendable, Hashable, RandomAccessCollection {
    public var all: [Diagnostic]

    public init(_ all: [Diagnostic]) {
        self.all = all.sorted { $0.range.offset < $1.range.offset }
    }

    public var startIndex: Int { all.startIndex }
    public var endIndex: Int { all.endIndex }
    public subscript(position: Int) -> Diagnostic { all[position] }

    /// The messages, in source order (handy in tests and logs).
    public var messages: [String] { all.map(\.message) }
}
