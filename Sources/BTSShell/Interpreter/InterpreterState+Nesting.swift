/// Aliases and `source` run inside one another at most `maxNesting` deep. The first call past
/// the limit fails, and every level of that expansion stops there, `--continue-on-error` or not:
/// an alias that calls itself three times (`alias a 'a; a; a'`) printed the error 3^16 times.
extension InterpreterState {
    static let maxNesting = 16

    /// Throws `error` when one more level would pass the limit (a new expansion from the top
    /// level starts afresh).
    mutating func enterNesting(_ error: @autoclosure () -> ShellError) throws(ShellError) {
        if sourceDepth == 0 { nestingOverflowed = false }
        guard sourceDepth >= Self.maxNesting else { return }
        nestingOverflowed = true
        throw error()
    }

    /// Whether the statements running inside an expansion must stop: it went past the limit.
    var unwindsNesting: Bool { nestingOverflowed && sourceDepth > 0 }
}
