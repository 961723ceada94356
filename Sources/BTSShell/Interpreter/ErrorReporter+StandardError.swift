import Foundation

extension ErrorReporter {
    /// Renders `error` on standard error for a program's own failure (`bts serve`'s start-up, a
    /// data builder), `origin: error: …`, and returns its exit status.
    package static func write(_ error: ShellError, origin: String) -> Int32 {
        let text = ErrorReporter(origin: origin).render(error, in: nil)
        FileHandle.standardError.write(Data(text.utf8))
        return error.status.rawValue
    }
}
