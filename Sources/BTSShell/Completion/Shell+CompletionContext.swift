import BooksTrackCatalog
import BooksTrackClient
import BooksTrackContract
import Foundation

extension Shell {
    /// Brings the completion snapshot in `store` up to date with this session: books and job ids
    /// found in `$_`, the jobs started, variable names, profile names, and the commands the
    /// connected server's capabilities switch off. Call it after each command (the interactive
    /// loop does, before showing the prompt); it never opens a backend or sends a request.
    package func updateCompletionContext(_ store: CompletionContextStore) async {
        let result = lastResult
        let jobs = services.jobs.all
        var names = Set(variables.keys)
        if result != .null { names.insert("_") }
        if lastExchange != nil { names.insert(VariableScope.Exchange.name) }
        let headers = lastExchange.map { CompletionEngine.pathKeys($0.headers.map { $0.name.lowercased() }) } ?? []
        let profiles = (services.backendSession.loadedConfig?.profileNames ?? []) + BackendProfile.builtIn.map(\.name)
        var unavailable: [String: String] = [:]
        let routes = await connection?.api.offeredRoutes
        if let api = connection?.api {
            // A scoped gate (`enrich`'s batch form) leaves the command itself available.
            for (name, gate) in CommandTable.gates where gate.scope == nil {
                if case .unavailable(let reason) = await api.availability(of: gate.feature) {
                    unavailable[name] = reason
                }
            }
        }
        let embedded = (try? services.backendSession.target()) == .embedded
        store.noteCatalog(embedded: embedded, backendOptions: options.backendOptions)
        await noteLibrary(in: store)
        store.harvest(result)
        store.update { context in
            for job in jobs {
                context.noteJob(id: job.id, summary: "\(job.pipeline.commandName), \(job.status.rawValue)")
            }
            context.variables = names
            context.exchangeHeaders = headers
            context.profiles = Set(profiles)
            context.unavailableCommands = unavailable
            context.apiRoutes = routes
        }
    }
}
