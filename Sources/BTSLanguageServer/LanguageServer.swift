import BTSLanguage
import BTSShell
import BooksTrackContract
import Foundation

/// `bts lsp`: a Language Server Protocol server for `.bts` scripts. It takes one decoded message at
/// a time and returns the messages to send (responses and notifications); the transport around it
/// (``LanguageServerTransport``) reads and writes the framed stream. Diagnostics come from the
/// whole-script check, completion from the REPL's completion engine, hover from the commands' help,
/// formatting from ``ScriptFormatter``. It never runs a command: no request reaches a server.
public actor LanguageServer {
    /// JSON-RPC's and LSP's error codes.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case serverNotInitialized = -32002
    }

    enum State { case starting, running, shuttingDown }

    /// The largest document checked (a script is at most this; bigger ones get one warning).
    static let maxDocument = 1 << 20

    struct Document {
        var text: String
        var index: LineIndex
        var version: Int?
    }

    let shell: Shell
    let registry = CommandRegistry.standard
    var state = State.starting
    var documents: [String: Document] = [:]
    /// What completion knows of the reader's library (ISBNs, titles, shelves), read once.
    let completionStore = CompletionContextStore()
    /// Set by `exit`: the process's status (0 after `shutdown`, else 1).
    public private(set) var exitStatus: Int32?

    /// A server whose check, completion and help come from `shell` (which it never asks to run anything).
    public init(shell: Shell) {
        self.shell = shell
    }

    /// One message's body as it came off the stream; the messages to send back.
    public func handle(body: [UInt8]) async -> [JSONValue] {
        guard let message = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else {
            return [Self.error(id: .null, .parseError, "the message is not JSON")]
        }
        return await handle(message)
    }

    /// One decoded message; the messages to send back.
    public func handle(_ message: JSONValue) async -> [JSONValue] {
        guard case .object(let fields) = message, case .string(let method)? = fields["method"] else {
            if case .object(let fields) = message, fields["id"] != nil, fields["method"] == nil { return [] } // a response to us
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
        case .success(let result): return [["jsonrpc": "2.0", "id": id, "result": result]]
        case .failure(let failure): return [Self.error(id: id, failure.code, failure.message)]
        }
    }

    struct Failure: Error {
        var code: ErrorCode
        var message: String
    }

    private func request(_ method: String, _ params: JSONValue) async -> Result<JSONValue, Failure> {
        switch method {
        case "initialize":
            guard state == .starting else { return .failure(Failure(code: .invalidRequest, message: "initialize was already received")) }
            state = .running
            await shell.updateCompletionContext(completionStore)
            return .success(Self.initializeResult)
        case "shutdown":
            state = .shuttingDown
            return .success(.null)
        case "textDocument/completion":
            return withDocument(params) { document, offset in .success(completion(in: document, at: offset)) }
        case "textDocument/hover":
            return withDocument(params) { document, offset in .success(hover(in: document, at: offset)) }
        case "textDocument/formatting":
            return withDocument(params) { document, _ in .success(formatting(document)) }
        case "textDocument/documentSymbol":
            return withDocument(params) { document, _ in .success(symbols(document)) }
        default:
            return .failure(Failure(code: .methodNotFound, message: "'\(method)' is not a method bts lsp answers"))
        }
    }

    private func notification(_ method: String, _ params: JSONValue) async -> [JSONValue] {
        switch method {
        case "textDocument/didOpen":
            guard case .string(let uri)? = params["textDocument"]?["uri"],
                  case .string(let text)? = params["textDocument"]?["text"] else { return [] }
            documents[uri] = Document(text: text, index: LineIndex(text), version: params["textDocument"]?["version"]?.intValue)
            return [await publishDiagnostics(uri)]
        case "textDocument/didChange":
            // Incremental sync: each change replaces a range (or, without one, the whole text), in order.
            guard case .string(let uri)? = params["textDocument"]?["uri"], var document = documents[uri],
                  let changes = params["contentChanges"]?.arrayValue else { return [] }
            for change in changes {
                guard case .string(let text)? = change["text"] else { continue }
                document.text = Self.applying(text, at: change["range"], to: document)
                document.index = LineIndex(document.text)
            }
            document.version = params["textDocument"]?["version"]?.intValue
            documents[uri] = document
            return [await publishDiagnostics(uri)]
        case "textDocument/didClose":
            guard case .string(let uri)? = params["textDocument"]?["uri"] else { return [] }
            documents[uri] = nil
            return [Self.diagnosticsNotification(uri: uri, version: nil, [])]
        default:
            // `initialized`, `$/…`, `workspace/didChangeConfiguration`, …: nothing to do.
            return []
        }
    }

    /// The document's text with `replacement` in place of `range` (an LSP range; none: the whole text).
    static func applying(_ replacement: String, at range: JSONValue?, to document: Document) -> String {
        guard let range, range != .null else { return replacement }
        func offset(_ key: String) -> Int {
            document.index.offset(line: range[key]?["line"]?.intValue ?? 0, character: range[key]?["character"]?.intValue ?? 0)
        }
        let bytes = document.index.bytes
        let start = min(offset("start"), bytes.count)
        let end = max(start, min(offset("end"), bytes.count))
        return String(decoding: bytes[..<start], as: UTF8.self) + replacement + String(decoding: bytes[end...], as: UTF8.self)
    }

    /// Runs `body` on the document `params` names, with the byte offset of its `position` (if any).
    private func withDocument(_ params: JSONValue, _ body: (Document, Int) -> Result<JSONValue, Failure>) -> Result<JSONValue, Failure> {
        guard case .string(let uri)? = params["textDocument"]?["uri"] else {
            return .failure(Failure(code: .invalidParams, message: "textDocument.uri is missing"))
        }
        guard let document = documents[uri] else {
            return .failure(Failure(code: .invalidParams, message: "the document \(uri) is not open"))
        }
        let line = params["position"]?["line"]?.intValue ?? 0
        let character = params["position"]?["character"]?.intValue ?? 0
        return body(document, document.index.offset(line: line, character: character))
    }

    static let initializeResult: JSONValue = [
        "capabilities": [
            "positionEncoding": "utf-16",
            "textDocumentSync": ["openClose": true, "change": 2],
            "completionProvider": ["triggerCharacters": ["-", "$", "{", "."]],
            "hoverProvider": true,
            "documentFormattingProvider": true,
            "documentSymbolProvider": true,
        ],
        "serverInfo": ["name": "bts", "version": .string(BTSVersion.current)],
    ]

    static func error(id: JSONValue, _ code: ErrorCode, _ message: String) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "error": ["code": .number(Double(code.rawValue)), "message": .string(message)]]
    }

    /// An LSP range from two byte offsets.
    static func range(_ start: Int, _ end: Int, in index: LineIndex) -> JSONValue {
        let (startLine, startCharacter) = index.position(of: start)
        let (endLine, endCharacter) = index.position(of: end)
        return ["start": ["line": .number(Double(startLine)), "character": .number(Double(startCharacter))],
                "end": ["line": .number(Double(endLine)), "character": .number(Double(endCharacter))]]
    }
}

extension JSONValue {
    /// An integral number as `Int`.
    var intValue: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }
}
