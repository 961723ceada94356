import BTSLanguage

extension CommandRegistry {
    /// The resolution of command lines against these specs (``CommandResolver``).
    package var resolver: CommandResolver { CommandResolver(registry: self) }

    /// Binds a parsed command to its spec (``CommandResolver/resolve(_:)``).
    package func resolve(_ command: Command) -> Result<ResolvedCommand, Diagnostics> { resolver.resolve(command) }

    /// Checks the interpolated `$var` values of a resolved command
    /// (``CommandResolver/finish(_:interpolate:)``).
    package func finish(
        _ resolved: ResolvedCommand,
        interpolate: (Word) -> Result<String, Diagnostic>
    ) -> Result<ResolvedCommand, Diagnostics> { resolver.finish(resolved, interpolate: interpolate) }

    /// The diagnostic for a name that is no command (``CommandResolver/unknownCommand(_:range:)``).
    func unknownCommand(_ name: String, range: SourceRange) -> Diagnostic {
        resolver.unknownCommand(name, range: range)
    }

    /// Whether `name` can be assigned with `set` (``Parser/isVariableName(_:)``).
    package static func isVariableName(_ name: String) -> Bool { Parser.isVariableName(name) }
}
