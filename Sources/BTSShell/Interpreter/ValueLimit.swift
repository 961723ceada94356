import BooksTrackContract

/// The bound on one value built by the shell (an interpolated word, a variable), so that doubling
/// a variable in a loop cannot exhaust memory.
enum ValueLimit {
    /// 16 MiB of text, as large as the largest response body the client reads.
    static let maxBytes = 16 * 1024 * 1024

    /// The error for a value that grew past the limit.
    static func tooLarge(_ bytes: Int) -> ShellError {
        ShellError(
            .failure,
            "the value is too large (over \(maxBytes / (1024 * 1024)) MB; it reached \(bytes / (1024 * 1024)) MB)",
            code: .valueTooLarge
        )
    }
}

extension ErrorCode {
    /// A value over the shell's size limit.
    static let valueTooLarge: ErrorCode = "VALUE_TOO_LARGE"
}
