import ArgumentParser
import BTSShell
import BooksTrackCatalog
import BooksTrackEmbedding
import BooksTrackServer
import Foundation

/// `bts serve`: the local BooksTrack-compatible server in the foreground.
struct ServeCommand: StandaloneCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the local BooksTrack-compatible server in the foreground (Ctrl-C stops it).",
        discussion: "Server flags:\n" + ServerConfiguration.flagHelp
    )

    /// `bts serve --help`: usage, what it does, and every server flag.
    static let helpText = """
        OVERVIEW: \(configuration.abstract)

        USAGE: bts serve [FLAGS...]

        Server flags:
        \(ServerConfiguration.flagHelp)

        Jobs and their results are kept in $XDG_STATE_HOME/bts/jobs (<cache-dir>/jobs with --cache-dir).

        """

    @ArgumentParser.Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("Server flags (see below).", valueName: "FLAGS"),
        completion: .custom { _, _, prefix in ShellCompletions.serverFlags(prefix: prefix) }
    )
    var flags: [String] = []

    /// `bts serve FLAGS…`: the server's own flags (`ServerConfiguration(arguments:)`) are passed
    /// through as they are; with `--help` or `-h` among them, the server's flags, from the one list
    /// the flag parser documents (`ServerConfiguration.flagHelp`).
    static func start(_ arguments: [String]) async throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(helpText, terminator: "")
            return 0
        }
        var serve = ServeCommand()
        serve.flags = arguments
        return await serve.execute()
    }

    func execute() async -> Int32 {
        // A server runs for days: a model file rewritten under it must not take its weights away.
        SentenceEncoder.weightsInOwnMemory = true
        var configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration(arguments: flags)
        } catch {
            return Self.report(ShellError(.usage, error.message))
        }
        let cache = configuration.cacheDirectory ?? XDGPaths().cacheDirectory
        // Jobs survive a restart: the XDG state directory unless --cache-dir says otherwise.
        if configuration.cacheDirectory == nil, configuration.jobsDirectory == nil {
            configuration.jobsDirectory = XDGPaths().stateDirectory.appendingPathComponent("jobs", isDirectory: true)
        }
        let catalog: SQLiteCatalog
        do {
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            catalog = try SQLiteCatalog.open(cacheDirectory: cache)
        } catch {
            return Self.report(ShellError(ServerStartError.opening("the catalog", in: cache, error)))
        }
        // A long-running server loads the books and vectors in the background now, so the first
        // semantic or similar request does not pay for it (one-shot embedded use stays lazy).
        Task.detached(priority: .utility) { catalog.preload() }
        do {
            try await LocalServer.serve(configuration, catalog: catalog)
            return ExitStatus.ok.rawValue
        } catch let failure as ServerStartError {
            return Self.report(ShellError(failure))
        } catch {
            if let failure = ServerStartError.binding(host: configuration.host, port: configuration.port, error) {
                return Self.report(ShellError(failure))
            }
            return Self.report(ShellError(.network, "\(error)"))
        }
    }

    /// One sentence on standard error, through the shell's reporter (`bts serve: error: …`); its exit status.
    static func report(_ error: ShellError) -> Int32 {
        ErrorReporter.write(error, origin: "bts serve")
    }
}

/// `bts catalog-clean IN.csv OUT` (hidden): rebuilds the cleaned catalog from goodbooks-10k's books.csv.
struct CatalogCleanCommand: StandaloneCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog-clean",
        abstract: "Clean goodbooks-10k books.csv into the bundled catalog TSV.",
        shouldDisplay: false
    )

    @ArgumentParser.Argument(help: "goodbooks-10k books.csv")
    var input: String

    @ArgumentParser.Argument(help: "Where to write the cleaned catalog")
    var output: String

    static func start(_ arguments: [String]) throws -> Int32 { try parse(arguments).execute() }

    func execute() -> Int32 {
        Self.report(Self.name) {
            try CatalogCleaner.clean(csvAt: URL(fileURLWithPath: input), to: URL(fileURLWithPath: output))
        }
    }
}
