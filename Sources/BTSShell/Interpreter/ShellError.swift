import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// Any failure of a command, as data: the exit status, the message, and where in the source
/// it points. Rendered in one place (``ErrorReporter``).
package struct ShellError: Error, Sendable {
    package var status: ExitStatus
    package var message: String
    /// The place in the current source the error is about (a word, or the whole command).
    package var range: SourceRange?
    /// Extra lines printed under the message (e.g. both sides of a failed `expect`).
    package var details: [String]
    /// Several diagnostics at once (syntax errors of a whole script); when set, `message` is unused.
    package var diagnostics: [Diagnostic]
    /// The code reported in `$_` (`NOT_FOUND`, `EXPECT_FAILED`, …): the contract's codes and the
    /// shell's own, each declared as an `ErrorCode` static beside the code that throws it.
    package var code: ErrorCode
    /// False for an error about another file (the config file): it is not shown under the command.
    package var pointsIntoSource = true
    /// The server's answer to the failed request (`api`: its body as it came), kept in `$_` as
    /// `body` beside `error`.
    package var answer: JSONValue?

    package init(
        _ status: ExitStatus,
        _ message: String,
        range: SourceRange? = nil,
        details: [String] = [],
        code: ErrorCode? = nil
    ) {
        self.status = status
        self.message = message
        self.range = range
        self.details = details
        self.diagnostics = []
        self.code = code ?? ShellError.defaultCode(status)
    }

    /// Syntax or validation errors (exit 2).
    package init(diagnostics: [Diagnostic], status: ExitStatus = .usage) {
        self.status = status
        self.message = diagnostics.first?.message ?? "invalid input"
        self.range = diagnostics.first?.range
        self.details = []
        self.diagnostics = diagnostics
        self.code = ShellError.defaultCode(status)
    }

    /// Maps an API error to its exit status (via the client's category) and user wording.
    package init(_ error: BooksTrackError, range: SourceRange? = nil) {
        let status = ExitStatus(error.category)
        var details: [String] = []
        if let detail = error.userDetail { details.append(detail) }
        self.init(status, error.message, range: range, details: details, code: error.code)
    }

    /// Interrupted by Ctrl-C.
    package static func interrupted(_ message: String = "interrupted") -> ShellError {
        ShellError(.interrupted, message)
    }

    static func defaultCode(_ status: ExitStatus) -> ErrorCode {
        switch status {
        case .ok: return .ok
        case .failure: return .commandFailed
        case .usage: return .usage
        case .network: return .networkError
        case .expectationFailed: return .expectFailed
        case .rateLimited: return .rateLimitExceeded
        case .interrupted: return .interrupted
        }
    }
}

extension ErrorCode {
    /// The shell's codes for an exit status without a more precise code.
    static let ok: ErrorCode = "OK"
    static let commandFailed: ErrorCode = "COMMAND_FAILED"
    static let usage: ErrorCode = "USAGE"
    static let interrupted: ErrorCode = "INTERRUPTED"
}

extension ShellError {
    /// Any error as a `ShellError`; cancellation becomes "interrupted" (130).
    static func from(_ error: any Error, range: SourceRange) -> ShellError {
        if Task.isCancelled { return .interrupted() }
        switch error {
        case let error as ShellError:
            var located = error
            if located.range == nil, located.diagnostics.isEmpty, located.pointsIntoSource { located.range = range }
            return located
        case let error as BooksTrackError:
            if error.isCancellation { return .interrupted() }
            return ShellError(error, range: range)
        case is CancellationError:
            return .interrupted()
        default:
            return ShellError(.failure, "\(error)", range: range)
        }
    }
}
