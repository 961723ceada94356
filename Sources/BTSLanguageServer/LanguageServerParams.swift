import BooksTrackContract

/// The parameters of the methods the server handles, read from a message's `params` (already
/// parsed by `JSONValue.parse`) as LSP types. The reading is as forgiving as an editor needs: a
/// line, character or version that is not an integral number is 0 (a version: none); a range
/// that is not an object starts and ends at 0:0; a change without a text is passed over; only
/// a missing document (`textDocument.uri`), or a missing text where one is needed, makes a message
/// unreadable.
enum LanguageServerParams {
    /// `params` read as `T`, or nil when they do not make one.
    static func read<T: Decodable>(_ type: T.Type, from params: JSONValue) -> T? {
        params.decoded(as: T.self)
    }

    /// `textDocument` of every method about a document: its URI, and (at `didOpen` and
    /// `didChange`) its version; `didOpen`'s text.
    struct Document: Decodable {
        var uri: String
        var version: Int?
        var text: String?

        enum CodingKeys: String, CodingKey { case uri, version, text }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            uri = try fields.decode(String.self, forKey: .uri)
            version = fields.integer(.version)
            text = try? fields.decode(String.self, forKey: .text)
        }
    }

    /// `didOpen`, `didClose`: the document.
    struct DocumentNotification: Decodable {
        var textDocument: Document
    }

    /// `didChange`: the document's new version and the changes, in order.
    struct DidChange: Decodable {
        var textDocument: Document
        var contentChanges: [TextChange]

        enum CodingKeys: String, CodingKey { case textDocument, contentChanges }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            textDocument = try fields.decode(Document.self, forKey: .textDocument)
            let changes = (try? fields.decode([ContentChange].self, forKey: .contentChanges)) ?? []
            contentChanges = changes.compactMap(\.change)
        }
    }

    /// One of `didChange`'s `contentChanges`: a range replaced (without one, the whole text); none
    /// without a text.
    struct ContentChange: Decodable {
        var change: TextChange?

        enum CodingKeys: String, CodingKey { case range, text }

        init(from decoder: any Decoder) {
            guard let fields = try? decoder.container(keyedBy: CodingKeys.self),
                let text = try? fields.decode(String.self, forKey: .text)
            else { return }
            guard fields.contains(.range), (try? fields.decodeNil(forKey: .range)) == false else {
                change = TextChange(range: nil, text: text)
                return
            }
            change = TextChange(range: fields.span(.range), text: text)
        }
    }

    /// A request about a document, at a position (completion, hover) or not (formatting,
    /// symbols): a missing position is 0:0.
    struct DocumentRequest: Decodable {
        var textDocument: Document
        var position: TextChange.Position

        enum CodingKeys: String, CodingKey { case textDocument, position }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            textDocument = try fields.decode(Document.self, forKey: .textDocument)
            position = fields.position(.position)
        }
    }

    /// The range of `textDocument/rangeFormatting` and `semanticTokens/range` (0:0–0:0 when it is
    /// not one).
    struct RangeRequest: Decodable {
        var range: TextChange.Span

        enum CodingKeys: String, CodingKey { case range }

        init(from decoder: any Decoder) {
            range = (try? decoder.container(keyedBy: CodingKeys.self))?.span(.range) ?? .zero
        }
    }

    /// `textDocument/codeAction`'s range and the kinds asked for (`context.only`; nil: every kind).
    struct CodeActionRequest: Decodable {
        var range: TextChange.Span
        var only: [String]?

        enum CodingKeys: String, CodingKey { case range, context }
        enum ContextKeys: String, CodingKey { case only }

        init(range: TextChange.Span, only: [String]?) {
            self.range = range
            self.only = only
        }

        init(from decoder: any Decoder) {
            let fields = try? decoder.container(keyedBy: CodingKeys.self)
            range = fields?.span(.range) ?? .zero
            let context = try? fields?.nestedContainer(keyedBy: ContextKeys.self, forKey: .context)
            only = (try? context?.decode([Kind].self, forKey: .only))?.compactMap(\.name)
        }

        /// One of `only`'s kinds (nil: not a string).
        struct Kind: Decodable {
            var name: String?

            init(from decoder: any Decoder) {
                name = try? decoder.singleValueContainer().decode(String.self)
            }
        }
    }
}

extension TextChange.Span {
    static let zero = TextChange.Span(
        start: TextChange.Position(line: 0, character: 0),
        end: TextChange.Position(line: 0, character: 0)
    )
}

extension KeyedDecodingContainer {
    /// An integral number under `key` (nil when absent, not a number, not integral or too large).
    fileprivate func integer(_ key: Key) -> Int? {
        guard let value = try? decode(Double.self, forKey: key), value.rounded() == value, abs(value) < 1e15 else {
            return nil
        }
        return Int(value)
    }

    /// LSP's `Position` under `key`: each field that is not an integral number is 0.
    fileprivate func position(_ key: Key) -> TextChange.Position {
        let fields = try? nestedContainer(keyedBy: PositionKeys.self, forKey: key)
        return TextChange.Position(line: fields?.integer(.line) ?? 0, character: fields?.integer(.character) ?? 0)
    }

    /// LSP's `Range` under `key`: each end that is not a position is 0:0.
    fileprivate func span(_ key: Key) -> TextChange.Span {
        guard let fields = try? nestedContainer(keyedBy: SpanKeys.self, forKey: key) else { return .zero }
        return TextChange.Span(start: fields.position(.start), end: fields.position(.end))
    }
}

private enum PositionKeys: String, CodingKey { case line, character }
private enum SpanKeys: String, CodingKey { case start, end }
