import BTSLanguage
import BTSShell

/// Parses one command (which must parse cleanly) and resolves it against the standard registry.
func registryResolve(_ text: String, registry: CommandRegistry = .standard) -> Result<ResolvedCommand, Diagnostics>? {
    let result = Parser.parse(text, name: "t.bts")
    guard result.diagnostics.isEmpty, let command = result.script.commands.first else { return nil }
    return registry.resolve(command)
}

/// The resolved command, or nil on failure.
func registryResolved(_ text: String) -> ResolvedCommand? {
    try? registryResolve(text)?.get()
}

/// The error messages of a failing resolution (empty when it succeeded).
func registryErrors(_ text: String) -> [String] {
    guard case .failure(let diagnostics)? = registryResolve(text) else { return [] }
    return diagnostics.messages
}

/// The rendered diagnostics of a failing resolution.
func registryRendered(_ text: String, name: String = "script.bts") -> String {
    let result = Parser.parse(text, name: name)
    var diagnostics = result.diagnostics
    for command in result.script.commands {
        if case .failure(let found) = CommandRegistry.standard.resolve(command) { diagnostics += found.all }
    }
    return DiagnosticRenderer().render(diagnostics, in: result.source)
}
