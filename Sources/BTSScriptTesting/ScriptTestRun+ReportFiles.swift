import BTSShell

extension ScriptTestRun {
    /// Writes a report (`--report-junit|tap|json FILE`) through ``UserFile``: a regular file replaced
    /// whole (a link's target, keeping its mode), its directories made as needed; a device or a pipe
    /// (`/dev/stdout`, `>(…)`) written to as it is. Nil when written, else the error, naming the
    /// cause: a directory, a read-only file, no space (`/dev/full`), a path through a file.
    package static func writeReport(_ text: String, to path: String) -> ShellError? {
        do throws(UserFile.Failure) {
            try UserFile.write(Array(text.utf8), to: path, .report)
            return nil
        } catch {
            return ShellError(.failure, "cannot write the report '\(path)': \(error.reason)", code: .writeFailed)
        }
    }
}
