import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `caps [--refresh]`: the server's features and limits, and which commands they gate.
struct CapsCommand: ShellCommand {
    static let result: CommandResult = .shape(.capabilities)

    static let refresh = OptionSpec("refresh", short: "r", type: .flag, help: "Fetch the capabilities again")

    static let configuration = CommandSpec(
        "caps",
        group: .meta,
        summary: "Show the server's features and limits, and which commands they gate",
        discussion: "Capabilities are cached for an hour; --refresh fetches them now.",
        options: [refresh, CommandSpec.columnsOption(featureColumns + limitColumns)],
        examples: ["caps", "caps --refresh"]
    )

    /// The tables of features (with the commands they gate) and of limits.
    static let featureColumns: [TableColumn] = [
        TableColumn("name", "FEATURE"), TableColumn("enabled", "ENABLED"),
        TableColumn("gates", "GATES", flexible: true),
    ]
    static let limitColumns: [TableColumn] = [TableColumn("name", "LIMIT"), .number("value", "VALUE")]

    var refresh: Bool

    init(_ resolved: ResolvedCommand) {
        refresh = resolved.flag(Self.refresh)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let connection = try await context.backend()
        var result: ConnectResult?
        if refresh { result = await connection.api.connect(refresh: true) }
        let capabilities = await connection.api.capabilities
        let source = await connection.api.capabilitiesSource
        guard let capabilities else {
            var failure = result?.error
            if failure == nil { failure = await connection.api.lastConnectError }
            throw CapabilityAbsence(failure).shellError
        }
        let gates = CommandTable.gatedCommands()
        let features = capabilities.features.keys.sorted().map { name in
            JSONValue.record([
                ("name", name.json), ("enabled", .bool(capabilities.features[name] ?? false)),
                ("gates", (gates[name] ?? []).json),
            ])
        }
        var limits: [JSONValue] = []
        let limitPairs: [(String, Int?)] = [
            ("semantic_search_rpm", capabilities.limits.semanticSearchRPM),
            ("text_search_rpm", capabilities.limits.textSearchRPM),
            ("csv_max_rows", capabilities.limits.csvMaxRows), ("max_batch_size", capabilities.limits.maxBatchSize),
            ("max_concurrent_jobs", capabilities.limits.maxConcurrentJobs),
        ]
        for (name, value) in limitPairs {
            if let value { limits.append(.record([("name", name.json), ("value", value.json)])) }
        }
        let sourceText: String
        switch source {
        case .none: sourceText = "unknown"
        case .server: sourceText = "server"
        case .cache(let age): sourceText = "cache (\(age.components.seconds) s old)"
        case .staleCache(let age): sourceText = "stale cache (\(age.components.seconds) s old; server unreachable)"
        }
        let dialect = await connection.api.dialect
        let dialectSource = await connection.api.dialectSource
        let value = JSONValue.record([
            ("server", SecretMasking.maskURL(connection.api.baseURL.absoluteString).json),
            ("version", capabilities.version.json),
            ("api", dialect.description.json), ("apiSource", dialectSource.rawValue.json),
            ("dialect", capabilities.dialect.rawValue.json), ("source", sourceText.json),
            ("features", .array(features)), ("limits", .array(limits)),
        ])
        let view = ResultView.sections([
            .record(fields: ["server", "version", "api", "source"].map { RecordField($0) }),
            .table(columns: Self.featureColumns, rowsKey: "features", footer: nil, empty: nil),
            .table(columns: Self.limitColumns, rowsKey: "limits", footer: nil, empty: nil),
        ])
        return CommandOutput(value: value, view: view)
    }
}
