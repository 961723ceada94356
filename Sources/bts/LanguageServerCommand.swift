import ArgumentParser
import BTSLanguageServer
import BTSShell
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `bts lsp`: the language server for editors, on stdin and stdout.
struct LanguageServerCommand: StandaloneCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the language server for .bts files on stdin and stdout (for an editor to start).",
        usage: "bts lsp",
        discussion: """
            The Language Server Protocol (JSON-RPC 2.0 with Content-Length framing, UTF-16 positions, \
            incremental document sync): diagnostics of the whole-script check as you type (of the newest \
            text, at most \(LanguageServer.maxDiagnostics) a document; each with its rule as its code, e.g. \
            unknown-command), quick fixes of every "did you mean" and "Format document" (code actions), \
            completion of commands, subcommands, options, values, variables and aliases (as TAB at the \
            prompt) and of a result's fields after ${_. or ${LOOPVAR., hover (commands, options, keywords, \
            variables, result fields), go to definition, references and rename of variables and aliases, \
            formatting of the document or of a range (bts fmt's layout), semantic tokens, folding ranges \
            and document symbols. It runs no command and contacts no server; completion reads your \
            library. Open documents may hold \(LanguageServer.openDocumentsBudget >> 20) MB together. \
            docs/editors.md shows how to start it from Vim, Neovim and VS Code, and its limits.
            """
    )

    static func start(_ arguments: [String]) async throws -> Int32 { try await parse(arguments).execute() }

    func execute() async -> Int32 {
        // The editor may go away mid-write: an error on the write, not a signal.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        // No session: the check is a value over the registry, completion reads the reader's files.
        let server = LanguageServer(checker: ScriptChecker()) { store in
            await ReaderCompletion.note(in: store, environment: environment)
        }
        return await LanguageServerTransport(server: server).run()
    }
}
