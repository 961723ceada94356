import BTSLanguage
import BTSShell
import BooksTrackContract
import Foundation

/// `bts lsp`: a Language Server Protocol server for `.bts` scripts. It takes one decoded message at
/// a time and returns the messages to send (responses, and an empty list of diagnostics at a close);
/// a change makes its document due a check, which ``startCheck()`` hands out and ``finish(_:_:)``
/// turns into diagnostics to publish; the transport around it (``LanguageServerTransport``) reads
/// and writes the framed stream and runs the checks. Diagnostics come from the whole-script check;
/// each other request is answered by a type of its own, handed the document's ``LineIndex``
/// (``ScriptCompletion``, ``ScriptHover``, ``DocumentFormatting``, ``SemanticTokenProvider``,
/// ``FoldingRanges``, ``Navigation``, ``DocumentSymbols``, ``CodeActions``), with what must outlive
/// a request kept here (the semantic tokens for deltas, the quick fixes published, the last
/// formatting). It holds no session, only a
/// ``ScriptChecker`` (a value with no backend): it never runs a command, and no request reaches a server.
package actor LanguageServer {
    /// JSON-RPC's and LSP's error codes.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case serverNotInitialized = -32002
        /// LSP's: a request understood that cannot be done (a rename that would clash).
        case requestFailed = -32803
    }

    enum State { case starting, running, shuttingDown }

    /// The largest document checked (a script is at most this; bigger ones get one warning).
    static let maxDocument = 1 << 20
    /// The most diagnostics published for one document; one more, the last, says how many more
    /// there are (a junk file has one at every line).
    package static let maxDiagnostics = 1_000
    /// The most the open documents' texts and line indexes hold together (``LineIndex/footprint``):
    /// a document that would take them past it is set aside (its text dropped, one warning).
    package static let openDocumentsBudget = 32 << 20

    /// An open document the server follows: its text, its editor's version and its generation in
    /// ``CheckSchedule`` (which changes at every change).
    struct Document {
        var uri: String
        var index: LineIndex
        var version: Int?
        var generation: Int

        var text: String { index.text }
    }

    /// An open document whose text is not kept (it would have taken the open documents past
    /// ``openDocumentsBudget``): its changes are not followed until the editor sends its whole text.
    struct SetAside {
        var version: Int?
        /// What it would have held.
        var footprint: Int
    }

    /// The whole-script check (no session: nothing it does reaches a server).
    let checker: ScriptChecker
    /// Fills the completion snapshot with what the reader's files hold, once, at `initialize`.
    let readCompletionContext: @Sendable (CompletionContextStore) async -> Void
    var state = State.starting
    var documents: [String: Document] = [:]
    var setAside: [String: SetAside] = [:]
    var schedule = CheckSchedule()
    /// The quick fixes of the diagnostics last published for each document, with their generation.
    var quickFixes: [String: (generation: Int, fixes: [QuickFix])] = [:]
    /// Whether the client shows a diagnostic's related places (its `initialize` says so).
    var showsRelatedInformation = false
    /// `bts fmt`'s edit of the document last formatted, at its generation (asked for again at every
    /// code action request of an unchanged document).
    var lastFormatting: (uri: String, generation: Int, edits: [LanguageServerResults.TextEdit])?
    /// The last semantic tokens sent for recent documents, for deltas.
    var semanticTokenResults = SemanticTokenStore()
    /// What completion knows of the reader's library (ISBNs, titles, shelves), read once.
    let completionStore = CompletionContextStore()
    /// Set by `exit`: the process's status (0 after `shutdown`, else 1).
    package private(set) var exitStatus: Int32?

    /// A server that checks with `checker` and completes with its registry and what
    /// `readCompletionContext` puts in the snapshot (``ReaderCompletion/note(in:environment:)``
    /// for `bts lsp`; by default nothing: no library, no catalog).
    package init(
        checker: ScriptChecker = ScriptChecker(),
        readCompletionContext: @escaping @Sendable (CompletionContextStore) async -> Void = { _ in }
    ) {
        self.checker = checker
        self.readCompletionContext = readCompletionContext
    }

    /// The commands checked, completed and explained.
    var registry: CommandRegistry { checker.registry }

    /// One message's body as it came off the stream; the messages to send back.
    package func handle(body: [UInt8]) async -> [JSONValue] {
        guard let message = JSONValue.parse(Data(body)) else {
            return [Self.error(id: .null, .parseError, "the message is not JSON")]
        }
        return await handle(message)
    }

    /// One decoded message; the messages to send back.
    package func handle(_ message: JSONValue) async -> [JSONValue] {
        guard case .object(let fields) = message, case .string(let method)? = fields["method"] else {
            // A response to us.
            if case .object(let fields) = message, fields["id"] != nil, fields["method"] == nil { return [] }
            return [Self.error(id: .null, .invalidRequest, "a message is an object with a method")]
        }
        let id = fields["id"]
        let params = fields["params"] ?? .null
        if method == "exit" {
            exitStatus = state == .shuttingDown ? 0 : 1
            return []
        }
        switch state {
        case .starting where method != "initialize":
            return id.map { [Self.error(id: $0, .serverNotInitialized, "the server is not initialized yet")] } ?? []
        case .shuttingDown:
            return id.map { [Self.error(id: $0, .invalidRequest, "the server is shutting down")] } ?? []
        default:
            break
        }
        guard let id else { return await notification(method, params) }
        switch await request(method, params) {
        case .success(let result): return [Self.response(id: id, result)]
        case .failure(let failure): return [Self.error(id: id, failure.code, failure.message)]
        }
    }

    struct Failure: Error {
        var code: ErrorCode
        var message: String
    }

    /// A request's typed result (made JSON with the response around it, in ``handle(_:)``).
    private func request(_ method: String, _ params: JSONValue) async -> Result<any Encodable, Failure> {
        switch method {
        case "initialize":
            guard state == .starting else {
                return .failure(Failure(code: .invalidRequest, message: "initialize was already received"))
            }
            state = .running
            showsRelatedInformation = LanguageServerParams.showsRelatedInformation(params)
            await readCompletionContext(completionStore)
            return .success(Self.initializeResult)
        case "shutdown":
            state = .shuttingDown
            return .success(JSONValue.null)
        case "textDocument/completion":
            let context = completionStore.completionContext
            return withDocument(params, empty: LanguageServerResults.CompletionList.empty) { document, offset in
                .success(ScriptCompletion.list(in: document.index, at: offset, registry: registry, context: context))
            }
        case "textDocument/hover":
            // Nothing to show: `"result": null`.
            return withDocument(params, empty: JSONValue.null) { document, offset in
                .success(ScriptHover.hover(in: document.index, at: offset, registry: registry))
            }
        case "textDocument/formatting":
            return withDocument(params) { document, _ in .success(formatting(document)) }
        case "textDocument/rangeFormatting":
            let range = LanguageServerParams.read(LanguageServerParams.RangeRequest.self, from: params)?.range ?? .zero
            return withDocument(params) { document, _ in
                let formatted = DocumentFormatting.formatted(document.index, maxBytes: Self.maxDocument)
                return .success(DocumentFormatting.range(document.index, range, formatted: formatted))
            }
        case "textDocument/semanticTokens/full":
            return withDocument(params, empty: JSONValue.null) { document, _ in
                .success(
                    SemanticTokenProvider.full(
                        document.index,
                        uri: document.uri,
                        registry: registry,
                        store: &semanticTokenResults
                    )
                )
            }
        case "textDocument/semanticTokens/full/delta":
            let previous = LanguageServerParams.read(
                LanguageServerParams.SemanticTokensDeltaRequest.self,
                from: params
            )?.previousResultId
            return withDocument(params, empty: JSONValue.null) { document, _ in
                .success(
                    SemanticTokenProvider.delta(
                        document.index,
                        uri: document.uri,
                        previous: previous,
                        registry: registry,
                        store: &semanticTokenResults
                    )
                )
            }
        case "textDocument/semanticTokens/range":
            let range = LanguageServerParams.read(LanguageServerParams.RangeRequest.self, from: params)?.range ?? .zero
            return withDocument(params, empty: JSONValue.null) { document, _ in
                .success(SemanticTokenProvider.range(document.index, range, registry: registry))
            }
        case "textDocument/foldingRange":
            return withDocument(params) { document, _ in
                let highlights = SemanticTokenProvider.highlights(document.index, registry: registry)
                return .success(FoldingRanges.of(highlights, in: document.index))
            }
        case "textDocument/definition":
            return withDocument(params, empty: JSONValue.null) { document, offset in
                .success(Navigation.definition(bindings(document), at: offset, in: document.index, uri: document.uri))
            }
        case "textDocument/references":
            let asked = LanguageServerParams.read(LanguageServerParams.ReferencesRequest.self, from: params)
            let includeDeclaration = asked?.includeDeclaration ?? false
            return withDocument(params, empty: JSONValue.null) { document, offset in
                .success(
                    Navigation.references(
                        bindings(document),
                        at: offset,
                        includeDeclaration: includeDeclaration,
                        in: document.index,
                        uri: document.uri
                    )
                )
            }
        case "textDocument/prepareRename":
            return withDocument(params, empty: JSONValue.null) { document, offset in
                Navigation.prepareRename(bindings(document), at: offset, in: document.index).map { $0 }
            }
        case "textDocument/rename":
            let newName = LanguageServerParams.read(LanguageServerParams.RenameRequest.self, from: params)?.newName
            return withDocument(params, empty: JSONValue.null) { document, offset in
                Navigation.rename(
                    bindings(document),
                    at: offset,
                    to: newName,
                    in: document.index,
                    uri: document.uri,
                    registry: registry
                ).map { $0 }
            }
        case "textDocument/documentSymbol":
            return withDocument(params) { document, _ in .success(DocumentSymbols.of(document.index)) }
        case "textDocument/codeAction":
            let asked =
                LanguageServerParams.read(LanguageServerParams.CodeActionRequest.self, from: params)
                ?? LanguageServerParams.CodeActionRequest(range: .zero, only: nil)
            return withDocument(params) { document, _ in
                let published = quickFixes[document.uri].flatMap { $0.generation == document.generation ? $0 : nil }
                return .success(
                    CodeActions.actions(asked, in: document.index, uri: document.uri, fixes: published?.fixes) {
                        formatting(document)
                    }
                )
            }
        default:
            return .failure(Failure(code: .methodNotFound, message: "'\(method)' is not a method bts lsp answers"))
        }
    }

    private func notification(_ method: String, _ params: JSONValue) async -> [JSONValue] {
        typealias Params = LanguageServerParams
        switch method {
        case "textDocument/didOpen":
            guard let opened = Params.read(Params.DocumentNotification.self, from: params)?.textDocument,
                let text = opened.text
            else { return [] }
            follow(opened.uri, LineIndex(text), version: opened.version)
        case "textDocument/didChange":
            guard let changed = Params.read(Params.DidChange.self, from: params) else { return [] }
            let (uri, version, changes) = (
                changed.textDocument.uri, changed.textDocument.version, changed.contentChanges
            )
            // Incremental sync: each change replaces a range (or, without one, the whole text), in order.
            if let document = documents[uri] {
                follow(uri, document.index.applying(changes), version: version)
            } else if setAside[uri] != nil {
                // Without its text, only a whole text (and the changes after it) can be followed.
                if changes.contains(where: { $0.range == nil }) {
                    follow(uri, LineIndex("").applying(changes), version: version)
                } else {
                    setAside[uri]?.version = version
                }
            }
        case "textDocument/didClose":
            guard let uri = Params.read(Params.DocumentNotification.self, from: params)?.textDocument.uri else {
                return []
            }
            documents[uri] = nil
            setAside[uri] = nil
            quickFixes[uri] = nil
            if lastFormatting?.uri == uri { lastFormatting = nil }
            semanticTokenResults.forget(uri)
            schedule.closed(uri)
            return [LanguageServerResults.json(Self.diagnosticsNotification(uri: uri, version: nil, []))]
        default:
            // `initialized`, `$/…`, `workspace/didChangeConfiguration`, …: nothing to do.
            break
        }
        return []
    }

    /// Keeps `index` as the text of `uri` (due a check), or sets the document aside when the open
    /// documents would then hold more than ``openDocumentsBudget``.
    private func follow(_ uri: String, _ index: LineIndex, version: Int?) {
        let generation = schedule.changed(uri)
        quickFixes[uri] = nil
        let others = documents.reduce(0) { $0 + ($1.key == uri ? 0 : $1.value.index.footprint) }
        if others + index.footprint <= Self.openDocumentsBudget {
            documents[uri] = Document(uri: uri, index: index, version: version, generation: generation)
            setAside[uri] = nil
        } else {
            documents[uri] = nil
            setAside[uri] = SetAside(version: version, footprint: index.footprint)
        }
    }

    /// Runs `body` on the document `params` names, with the byte offset of its `position` (0:0
    /// without one). (`empty` is the answer for a document set aside.)
    private func withDocument(
        _ params: JSONValue,
        empty: any Encodable = [JSONValue](),
        _ body: (Document, Int) -> Result<any Encodable, Failure>
    ) -> Result<any Encodable, Failure> {
        guard let asked = LanguageServerParams.read(LanguageServerParams.DocumentRequest.self, from: params) else {
            return .failure(Failure(code: .invalidParams, message: "textDocument.uri is missing"))
        }
        let uri = asked.textDocument.uri
        guard let document = documents[uri] else {
            // A document set aside has no text: nothing to offer (its diagnostic says why).
            if setAside[uri] != nil { return .success(empty) }
            return .failure(Failure(code: .invalidParams, message: "the document \(uri) is not open"))
        }
        return body(document, document.index.offset(line: asked.position.line, character: asked.position.character))
    }

    /// The document's variables and aliases (``Navigation/bindings(of:registry:)``).
    private func bindings(_ document: Document) -> ScriptBindings {
        Navigation.bindings(of: document.index, registry: registry)
    }

    /// `textDocument/formatting`: `bts fmt`'s layout as one edit of the whole document
    /// (``DocumentFormatting``), kept for the document's generation: code action requests (at
    /// every move of the cursor) ask again.
    private func formatting(_ document: Document) -> [LanguageServerResults.TextEdit] {
        if let last = lastFormatting, last.uri == document.uri, last.generation == document.generation {
            return last.edits
        }
        let formatted = DocumentFormatting.formatted(document.index, maxBytes: Self.maxDocument)
        let edits = DocumentFormatting.whole(document.index, formatted: formatted)
        lastFormatting = (document.uri, document.generation, edits)
        return edits
    }

    static let initializeResult = LanguageServerResults.InitializeResult(
        capabilities: .init(
            positionEncoding: "utf-16",
            textDocumentSync: .init(openClose: true, change: 2),
            completionProvider: .init(triggerCharacters: ["-", "$", "{", "."]),
            hoverProvider: true,
            documentFormattingProvider: true,
            documentSymbolProvider: true,
            codeActionProvider: .init(codeActionKinds: [CodeActions.quickFixKind, CodeActions.formatKind]),
            semanticTokensProvider: .standard,
            foldingRangeProvider: true,
            documentRangeFormattingProvider: true,
            definitionProvider: true,
            referencesProvider: true,
            renameProvider: .init(prepareProvider: true)
        ),
        serverInfo: .init(name: "bts", version: BTSVersion.current)
    )

    /// The answer to request `id`: `result`, typed (its type opened from the request's result).
    static func response(id: JSONValue, _ result: some Encodable) -> JSONValue {
        LanguageServerResults.json(LanguageServerResults.Response(id: id, result: result))
    }

    static func error(id: JSONValue, _ code: ErrorCode, _ message: String) -> JSONValue {
        LanguageServerResults.json(
            LanguageServerResults.ErrorResponse(id: id, error: .init(code: code.rawValue, message: message))
        )
    }

    /// An LSP range from two byte offsets.
    static func range(_ start: Int, _ end: Int, in index: LineIndex) -> LanguageServerResults.Range {
        index.range(start, end)
    }
}
