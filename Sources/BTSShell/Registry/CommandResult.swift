/// What one command leaves in `$_`, declared on its type (``ShellCommand/result``).
package enum CommandResult: Sendable {
    /// A value of this shape (held to it by a test that runs every command).
    case shape(ResultShape)
    /// Nothing: `$_` stays as it was (or as the commands it runs left it: `every`, `source`).
    case leavesResult
    /// Whatever the server answered (`api`): nothing is declared.
    case serverAnswer
    /// A command that runs only through a subcommand (`library`, `cache`): each subcommand's own.
    case ofSubcommand

    /// The declared shape; nil when none is.
    package var shape: ResultShape? {
        if case .shape(let shape) = self { return shape }
        return nil
    }
}
