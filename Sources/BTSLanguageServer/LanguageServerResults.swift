import BooksTrackContract

/// What the server sends, as LSP types: the messages (a response, an error, a notification) and
/// the result of each method it answers. They become the wire's JSON in one place, ``json(_:)``
/// (LanguageServerResults+Encoding).
enum LanguageServerResults {
    // MARK: Messages

    /// A request's answer.
    struct Response<Result: Encodable>: Encodable {
        let jsonrpc = "2.0"
        var id: JSONValue
        /// Encoded even when nil (`"result": null`: a hover on nothing, `shutdown`).
        var result: Result
    }

    /// A request's failure (or a message that could not be read: its id is null).
    struct ErrorResponse: Encodable {
        struct Body: Encodable {
            var code: Int
            var message: String
        }

        let jsonrpc = "2.0"
        var id: JSONValue
        var error: Body
    }

    /// A message that needs no answer.
    struct Notification<Params: Encodable>: Encodable {
        let jsonrpc = "2.0"
        var method: String
        var params: Params
    }

    // MARK: Shared types

    /// A position: a line and a UTF-16 column, both from 0.
    struct Position: Encodable, Equatable {
        var line: Int
        var character: Int
    }

    struct Range: Encodable, Equatable {
        var start: Position
        var end: Position
    }

    /// A range's new text.
    struct TextEdit: Encodable, Equatable {
        var range: Range
        var newText: String
    }

    // MARK: initialize

    struct InitializeResult: Encodable {
        struct Capabilities: Encodable {
            struct Sync: Encodable {
                var openClose: Bool
                /// 2: incremental.
                var change: Int
            }

            struct Completion: Encodable {
                var triggerCharacters: [String]
            }

            struct CodeActions: Encodable {
                var codeActionKinds: [String]
            }

            var positionEncoding: String
            var textDocumentSync: Sync
            var completionProvider: Completion
            var hoverProvider: Bool
            var documentFormattingProvider: Bool
            var documentSymbolProvider: Bool
            var codeActionProvider: CodeActions
            var semanticTokensProvider: SemanticTokensOptions? = nil
            var foldingRangeProvider: Bool? = nil
            var documentRangeFormattingProvider: Bool? = nil
            var definitionProvider: Bool? = nil
            var referencesProvider: Bool? = nil
            var renameProvider: RenameOptions? = nil
        }

        struct ServerInfo: Encodable {
            var name: String
            var version: String
        }

        var capabilities: Capabilities
        var serverInfo: ServerInfo
    }

    // MARK: textDocument/publishDiagnostics

    struct Diagnostic: Encodable, Sendable {
        var range: Range
        /// 1 error, 2 warning, 3 information.
        var severity: Int
        let source = "bts"
        var message: String
        /// The code `bts check` and `bts test` report the same failure with (`USAGE`); none on the
        /// server's own warnings.
        var code: String?
        /// The other places the message speaks of (`first given here`); left out when none.
        var relatedInformation: [RelatedInformation]?
    }

    struct PublishDiagnostics: Encodable, Sendable {
        var uri: String
        /// Left out when the editor gave none.
        var version: Int?
        var diagnostics: [Diagnostic]
    }

    // MARK: textDocument/hover

    struct Hover: Encodable {
        struct Contents: Encodable {
            let kind = "plaintext"
            var value: String
        }

        var contents: Contents
        var range: Range
    }

    // MARK: textDocument/completion

    struct CompletionList: Encodable {
        var isIncomplete: Bool
        var items: [CompletionItem]

        static let empty = CompletionList(isIncomplete: false, items: [])
    }

    struct CompletionItem: Encodable {
        var label: String
        /// LSP's completion kind (``LanguageServer/kind(of:aliases:)``).
        var kind: Int
        var sortText: String
        var filterText: String
        var textEdit: TextEdit
        /// A result field's type; left out elsewhere.
        var detail: String? = nil
        /// A result field's description; left out elsewhere.
        var documentation: String? = nil
    }

    // MARK: textDocument/documentSymbol

    struct DocumentSymbol: Encodable {
        var name: String
        /// 12 function, 13 variable, 3 namespace (a block).
        var kind: Int
        var range: Range
        var selectionRange: Range
        /// Left out when there are none.
        var children: [DocumentSymbol]?
    }

    // MARK: textDocument/codeAction

    struct CodeAction: Encodable {
        /// The edits of one document.
        struct WorkspaceEdit: Encodable {
            var changes: [String: [TextEdit]]
        }

        var title: String
        var kind: String
        /// A quick fix's diagnostic (left out for "Format document").
        var diagnostics: [Diagnostic]?
        var isPreferred: Bool?
        var edit: WorkspaceEdit
    }
}

extension LanguageServerResults.Notification: Sendable where Params: Sendable {}

extension LanguageServerResults.Position {
    static let zero = Self(line: 0, character: 0)
}
