import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `connect URL|PROFILE|embedded`.
struct ConnectCommand: ShellCommand {
    static let result: CommandResult = .shape(.connection)

    static let target = ArgumentSpec(
        "TARGET",
        "A URL (http://host:port), a profile name, or 'embedded'",
        completion: .profile
    )

    static let configuration = CommandSpec(
        "connect",
        group: .meta,
        summary: "Switch to another server by URL or profile name",
        discussion: """
            Built-in profiles: \(KnownBackend.names); more in $XDG_CONFIG_HOME/bts/config.toml \
            ([profiles.NAME] with url, token, dialect; docs/config.md). 'embedded' goes back to the embedded backend. \
            The target is checked first: when it cannot be reached the current server stays (--force \
            switches anyway).
            """,
        positionals: [target],
        options: [force],
        examples: [
            "connect embedded", "connect local", "connect \(KnownBackend.local.address)",
            "connect --force \(KnownBackend.local.address)",
        ],
        isSensitive: true
    )

    static let force = OptionSpec(
        "force",
        short: "f",
        type: .flag,
        help: "Switch even when the server cannot be reached"
    )

    var text: String
    var force: Bool

    init(_ resolved: ResolvedCommand) {
        text = resolved.string(Self.target) ?? ""
        force = resolved.flag(Self.force)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let target = try BackendSelection.target(
            forConnect: text,
            config: { () throws(ShellError) in try context.loadConfig() }
        )
        let opened = try await context.open(target, requireReachable: !force)
        let capabilities = await opened.api.capabilities
        let value = JSONValue.record([
            ("server", SecretMasking.maskURL(opened.api.baseURL.absoluteString).json),
            ("target", SecretMasking.maskURL(target.label).json),
            ("version", capabilities?.version.json), ("capabilities", .bool(capabilities != nil)),
            ("api", (await opened.api.dialect).description.json),
        ])
        if capabilities == nil {
            let absence = CapabilityAbsence(await opened.api.lastConnectError)
            context.output.warn(
                absence.isUnreachable
                    ? "switched to \(SecretMasking.maskURL(target.label)), but it cannot be reached: \(absence.failure?.message ?? "")"
                    : "connected to \(SecretMasking.maskURL(target.label)), but it did not publish its capabilities (gated commands will try anyway)"
            )
        }
        return CommandOutput(
            value: value,
            view: .record(fields: ["server", "target", "version", "api"].map { RecordField($0) })
        )
    }
}
