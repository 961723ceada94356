import BTSLanguageServer
import BTSShell
import BooksTrackContract
import Foundation
import TestSupport
import Testing

/// The language server as a client drives it, one message at a time (the transport is
/// `LanguageServerProcessTests`').
@Suite("language server")
struct LanguageServerTests {
    static let uri = "file:///tmp/script.bts"
    static let broken = """
        alias top search title $1 --limit 3
        set n 1
        serch dune
        search title dune --limt 5
        for book in a b
          echo $book
        end
        """

    /// A server after `initialize`, reading the reader's files of a private home for completion
    /// (as `bts lsp` does; there is no library there).
    static func started() async throws -> (LanguageServer, URL) {
        let home = try makeTempDirectory("lsp")
        let environment = [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
        ]
        let server = LanguageServer(checker: ScriptChecker()) { store in
            await ReaderCompletion.note(in: store, environment: environment)
        }
        let replies = await server.handle([
            "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["capabilities": [:]],
        ])
        #expect(replies.first?["result"]?["capabilities"]?["hoverProvider"] == true)
        _ = await server.handle(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        return (server, home)
    }

    /// The replies to a message, then what the checks it made due publish.
    static func send(_ server: LanguageServer, _ message: JSONValue) async -> [JSONValue] {
        let replies = await server.handle(message)
        return replies + (await server.checkDue())
    }

    static func open(_ server: LanguageServer, _ text: String, version: Int = 1, uri: String = uri) async -> [JSONValue]
    {
        await send(
            server,
            [
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": [
                    "textDocument": [
                        "uri": .string(uri), "languageId": "bts", "version": .number(Double(version)),
                        "text": .string(text),
                    ]
                ],
            ]
        )
    }

    /// `didChange` of the document at `uri` with `changes`, not yet checked.
    static func change(
        _ server: LanguageServer,
        version: Int,
        _ changes: [JSONValue],
        uri: String = uri
    ) async -> [JSONValue] {
        await server.handle([
            "jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": [
                "textDocument": ["uri": .string(uri), "version": .number(Double(version))],
                "contentChanges": .array(changes),
            ],
        ])
    }

    static func request(
        _ server: LanguageServer,
        _ method: String,
        line: Int = 0,
        character: Int = 0
    ) async -> JSONValue? {
        let replies = await server.handle([
            "jsonrpc": "2.0", "id": 9, "method": .string(method),
            "params": [
                "textDocument": ["uri": .string(uri)],
                "position": ["line": .number(Double(line)), "character": .number(Double(character))],
                "options": ["tabSize": 2, "insertSpaces": true],
            ],
        ])
        return replies.first?["result"]
    }

    static func close(_ home: URL) async {
        try? FileManager.default.removeItem(at: home)
    }

    /// `line:character-line:character message` of each published diagnostic.
    static func diagnostics(_ replies: [JSONValue]) -> [String] {
        guard let notification = replies.first(where: { $0["method"] == "textDocument/publishDiagnostics" }) else {
            return ["none"]
        }
        return (notification["params"]?["diagnostics"]?.arrayValue ?? []).map { item in
            let range = item["range"]
            func point(_ key: String) -> String {
                "\(range?[key]?["line"]?.interpolationText ?? "?"):\(range?[key]?["character"]?.interpolationText ?? "?")"
            }
            return "\(point("start"))-\(point("end")) \(item["message"]?.interpolationText ?? "")"
        }
    }

    @Test func twoMistakesGiveTwoDiagnosticsAtTheirPlacesAndAFixClearsThem() async throws {
        let (server, home) = try await Self.started()
        let opened = Self.diagnostics(await Self.open(server, Self.broken))
        #expect(opened.count == 2, "\(opened)")
        #expect(
            opened.first?.hasPrefix("2:0-2:5 unknown command 'serch' (did you mean 'search'?)") == true,
            "\(opened)"
        )
        #expect(opened.last == "3:18-3:24 unknown option '--limt' for 'search' (did you mean '--limit'?)", "\(opened)")
        let fixed = Self.broken.replacingOccurrences(of: "serch", with: "search").replacingOccurrences(
            of: "--limt",
            with: "--limit"
        )
        let changed = await Self.change(server, version: 2, [["text": .string(fixed)]]) + (await server.checkDue())
        #expect(Self.diagnostics(changed) == [], "fixed: cleared")
        #expect(changed.first?["params"]?["version"] == 2)
        let closed = await server.handle([
            "jsonrpc": "2.0", "method": "textDocument/didClose", "params": ["textDocument": ["uri": .string(Self.uri)]],
        ])
        #expect(Self.diagnostics(closed) == [])
        await Self.close(home)
    }

    @Test func incrementalChangesReplaceTheirRanges() async throws {
        let (server, home) = try await Self.started()
        #expect(Self.diagnostics(await Self.open(server, Self.broken)).count == 2)
        // "serch" → "search" on line 2, then "é" typed before "dune" on line 3 (UTF-16 columns).
        let changed =
            await Self.change(
                server,
                version: 2,
                [
                    [
                        "range": ["start": ["line": 2, "character": 0], "end": ["line": 2, "character": 5]],
                        "text": "search",
                    ],
                    [
                        "range": ["start": ["line": 3, "character": 13], "end": ["line": 3, "character": 13]],
                        "text": "é",
                    ],
                ]
            ) + (await server.checkDue())
        #expect(
            Self.diagnostics(changed) == ["3:19-3:25 unknown option '--limt' for 'search' (did you mean '--limit'?)"],
            "\(Self.diagnostics(changed))"
        )
        // The server's text holds both changes (formatting returns it with its final line break).
        let edits = await Self.request(server, "textDocument/formatting")?.arrayValue ?? []
        let expected =
            Self.broken.replacingOccurrences(of: "serch", with: "search")
            .replacingOccurrences(of: "title dune --limt", with: "title édune --limt") + "\n"
        #expect(edits.first?["newText"]?.stringValue == expected, "\(edits)")
        await Self.close(home)
    }

    /// Odd parameters are read as before they had types: a version that is not an integral
    /// number is none, a range that is not an object is 0:0, a change without a text is passed
    /// over, a position that is not one is 0:0, kinds that are not strings are dropped.
    @Test func oddParametersAreReadForgivingly() async throws {
        let (server, home) = try await Self.started()
        let opened = await Self.send(
            server,
            [
                "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": [
                    "textDocument": [
                        "uri": .string(Self.uri), "languageId": "bts", "version": "one", "text": "search title dune\n",
                    ]
                ],
            ]
        )
        let published = opened.first { $0["method"] == "textDocument/publishDiagnostics" }
        #expect(published?["params"]?["diagnostics"] == [] && published?["params"]?["version"] == nil, "\(opened)")
        // At 0:0, on `search`: its help.
        let hover = await server.handle([
            "jsonrpc": "2.0", "id": 7, "method": "textDocument/hover",
            "params": [
                "textDocument": ["uri": .string(Self.uri)], "position": ["line": "first", "character": 2.5],
            ],
        ])
        #expect(hover.first?["result"]?["range"]?["start"]?["character"] == 0, "\(hover)")
        let changed =
            await Self.change(
                server,
                version: 2,
                [
                    ["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 6]]],
                    ["range": "junk", "text": "x"],
                    ["range": ["start": ["line": 0.5, "character": 0], "end": "end"], "text": "y"],
                ]
            ) + (await server.checkDue())
        #expect(
            Self.diagnostics(changed).first?.hasPrefix("0:0-0:8 unknown command 'yxsearch'") == true,
            "\(Self.diagnostics(changed))"
        )
        let whole =
            await Self.change(server, version: 3, [["range": .null, "text": "serch  x\n"]]) + (await server.checkDue())
        #expect(
            Self.diagnostics(whole).first?.hasPrefix("0:0-0:5 unknown command 'serch'") == true,
            "\(Self.diagnostics(whole))"
        )
        // Unformatted, with a fix at 0:0: only the quick fix is asked for.
        let actions = await server.handle([
            "jsonrpc": "2.0", "id": 8, "method": "textDocument/codeAction",
            "params": [
                "textDocument": ["uri": .string(Self.uri)], "range": "all", "context": ["only": [5, "quickfix"]],
            ],
        ])
        let kinds = actions.first?["result"]?.arrayValue?.compactMap { $0["kind"]?.stringValue }
        #expect(kinds == ["quickfix"], "\(actions)")
        await Self.close(home)
    }

    @Test func positionsCountUTF16() async throws {
        let (server, home) = try await Self.started()
        // "é" is 2 bytes and 1 UTF-16 unit; "📚" 4 bytes and 2 units.
        let found = Self.diagnostics(await Self.open(server, "echo \"é📚\"; serch x"))
        #expect(found.first?.hasPrefix("0:12-0:17 unknown command 'serch'") == true, "\(found)")
        await Self.close(home)
    }

    @Test func completionOffersCommandsAtALineStartAndOptionsAfterDashes() async throws {
        let (server, home) = try await Self.started()
        _ = await Self.open(server, Self.broken + "\n\nsearch title dune --\nec\necho $b\n")
        func labels(_ line: Int, _ character: Int) async -> [String] {
            (await Self.request(server, "textDocument/completion", line: line, character: character)?["items"]?
                .arrayValue ?? [])
                .compactMap { $0["label"]?.stringValue }
        }
        let start = await labels(7, 0)
        #expect(start.contains("search") && start.contains("while") && start.contains("expect"), "\(start)")
        #expect(start.contains("top"), "the alias defined above: \(start)")
        let options = await labels(8, 20)
        #expect(options.contains("--limit") && options.contains("--all") && options.contains("--offset"), "\(options)")
        #expect(!options.contains("search"), "\(options)")
        #expect(await labels(9, 2) == ["echo"])
        let variables = await labels(10, 7)
        #expect(!variables.contains("$book"), "a loop variable is offered inside its loop only: \(variables)")
        let item = await Self.request(server, "textDocument/completion", line: 9, character: 2)?["items"]?.arrayValue?
            .first
        #expect(item?["textEdit"]?["range"]?["start"]?["character"] == 0 && item?["textEdit"]?["newText"] == "echo")
        await Self.close(home)
    }

    @Test func hoverShowsACommandsAndAnOptionsHelp() async throws {
        let (server, home) = try await Self.started()
        _ = await Self.open(server, "search title dune --limit 5\nset n 6 * 7\n")
        let command = await Self.request(server, "textDocument/hover", line: 0, character: 2)
        #expect(
            command?["contents"]?["value"]?.stringValue?.hasPrefix("search — Find books by ISBN, title or author")
                == true,
            "\(String(describing: command))"
        )
        let sub = await Self.request(server, "textDocument/hover", line: 0, character: 9)
        #expect(sub?["contents"]?["value"]?.stringValue?.hasPrefix("search title — Search by title") == true)
        let option = await Self.request(server, "textDocument/hover", line: 0, character: 20)
        #expect(
            option?["contents"]?["value"]?.stringValue?.hasPrefix("-n, --limit N\n\nMaximum number of results") == true,
            "\(String(describing: option))"
        )
        #expect(await Self.request(server, "textDocument/hover", line: 0, character: 14) == .null, "a plain word")
        await Self.close(home)
    }

    @Test func formattingReturnsTheLayoutOfBtsFmt() async throws {
        let (server, home) = try await Self.started()
        _ = await Self.open(server, "for x in a b\necho   $x\n    end\n")
        let edits = await Self.request(server, "textDocument/formatting")?.arrayValue ?? []
        #expect(edits.count == 1)
        #expect(edits.first?["newText"] == "for x in a b\n  echo $x\nend\n")
        #expect(edits.first?["range"]?["end"]?["line"] == 3)
        _ = await Self.open(server, "for x in a b\n  echo $x\nend\n", version: 2)
        #expect(await Self.request(server, "textDocument/formatting") == [], "formatted already")
        _ = await Self.open(server, "echo \"open\n", version: 3)
        #expect(await Self.request(server, "textDocument/formatting") == [], "syntax errors: no edit")
        await Self.close(home)
    }

    @Test func symbolsAreAliasesVariablesAndBlocks() async throws {
        let (server, home) = try await Self.started()
        _ = await Self.open(
            server,
            "alias top search title $1\nset n 0\nwhile $n < 3\n  set n $n + 1\n  if $n == 2; echo two; end\nend\n"
        )
        let symbols = await Self.request(server, "textDocument/documentSymbol")?.arrayValue ?? []
        #expect(symbols.compactMap { $0["name"]?.stringValue } == ["top", "$n", "while $n < 3"])
        #expect(symbols.map { $0["kind"] } == [12, 13, 3])
        let children = symbols.last?["children"]?.arrayValue ?? []
        #expect(children.compactMap { $0["name"]?.stringValue } == ["$n", "if $n == 2"])
        // A block reaches from its header to its `end`.
        #expect(symbols.last?["range"]?["start"]?["line"] == 2 && symbols.last?["range"]?["end"]?["line"] == 5)
        #expect(symbols.last?["range"]?["end"]?["character"] == 3)
        #expect(children.last?["range"]?["end"]?["character"] == 27, "the one-line if ends at its end")
        await Self.close(home)
    }

    @Test func badInputIsAnsweredPerTheSpecification() async throws {
        let home = try makeTempDirectory("lsp-bad")
        let server = LanguageServer(checker: ScriptChecker())
        let early = await server.handle(["jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": [:]])
        #expect(early.first?["error"]?["code"] == -32002)
        #expect(
            await server.handle(["jsonrpc": "2.0", "method": "textDocument/didOpen", "params": [:]]).isEmpty,
            "a notification before initialize is dropped"
        )
        _ = await server.handle(["jsonrpc": "2.0", "id": 2, "method": "initialize", "params": [:]])
        let again = await server.handle(["jsonrpc": "2.0", "id": 3, "method": "initialize", "params": [:]])
        #expect(again.first?["error"]?["code"] == -32600)
        #expect(await server.handle(body: Array("{not json".utf8)).first?["error"]?["code"] == -32700)
        #expect(await server.handle(body: Array("[1,2]".utf8)).first?["error"]?["code"] == -32600)
        let unknown = await server.handle(["jsonrpc": "2.0", "id": "x", "method": "workspace/symbol", "params": [:]])
        #expect(unknown.first?["error"]?["code"] == -32601 && unknown.first?["id"] == "x")
        #expect(await server.handle(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 1]]).isEmpty)
        let missing = await server.handle([
            "jsonrpc": "2.0", "id": 4, "method": "textDocument/hover",
            "params": ["textDocument": ["uri": "file:///nowhere.bts"]],
        ])
        #expect(missing.first?["error"]?["code"] == -32602)
        // A document larger than a script may be: one warning, no check.
        let huge = String(repeating: "serch x\n", count: 140_000)
        let warned = Self.diagnostics(await Self.open(server, huge))
        #expect(warned.count == 1 && warned.first?.contains("larger than 1 MB") == true, "\(warned.prefix(2))")
        #expect(await server.exitStatus == nil)
        _ = await server.handle(["jsonrpc": "2.0", "id": 5, "method": "shutdown"])
        let after = await server.handle(["jsonrpc": "2.0", "id": 6, "method": "textDocument/hover", "params": [:]])
        #expect(after.first?["error"]?["code"] == -32600)
        _ = await server.handle(["jsonrpc": "2.0", "method": "exit"])
        #expect(await server.exitStatus == 0)
        let abrupt = LanguageServer(checker: ScriptChecker())
        _ = await abrupt.handle(["jsonrpc": "2.0", "method": "exit"])
        #expect(await abrupt.exitStatus == 1, "exit without shutdown")
        await Self.close(home)
    }

    /// The messages as the transport writes them: the typed results become JSON with sorted keys,
    /// integers without a fraction, `"result": null` for a hover on nothing and for `shutdown`, no
    /// `version` in the diagnostics of a close.
    @Test func repliesAreWrittenAsTheWireText() async throws {
        let server = LanguageServer(checker: ScriptChecker())
        let initialize = await server.handle(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": [:]])
        #expect(
            initialize.map(\.compactJSON) == [
                #"{"id":1,"jsonrpc":"2.0","result":{"capabilities":{"codeActionProvider":"#
                    + #"{"codeActionKinds":["quickfix","source.fixAll"]},"completionProvider":{"triggerCharacters":["-","$","{","."]},"#
                    + #""definitionProvider":true,"documentFormattingProvider":true,"documentRangeFormattingProvider":true,"#
                    + #""documentSymbolProvider":true,"foldingRangeProvider":true,"hoverProvider":true,"positionEncoding":"utf-16","#
                    + #""referencesProvider":true,"renameProvider":{"prepareProvider":true},"#
                    + #""semanticTokensProvider":{"full":{"delta":true},"legend":{"tokenModifiers":["declaration","readonly"],"#
                    + #""tokenTypes":["keyword","function","method","parameter","variable","property","string","number","operator","comment"]},"#
                    + #""range":true},"textDocumentSync":{"change":2,"openClose":true}},"#
                    + #""serverInfo":{"name":"bts","version":"\#(BTSVersion.current)"}}}"#
            ]
        )
        let opened = await Self.open(server, "serch x\nset n 1\n")
        #expect(
            opened.map(\.compactJSON) == [
                #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"diagnostics":"#
                    + #"[{"code":"unknown-command","message":"unknown command 'serch' (did you mean 'search'?)\ntype 'help' to list the commands","range":"#
                    + #"{"end":{"character":5,"line":0},"start":{"character":0,"line":0}},"severity":1,"source":"bts"}],"#
                    + #""uri":"file:///tmp/script.bts","version":1}}"#
            ]
        )
        let nothing = await server.handle([
            "jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
            "params": [
                "textDocument": ["uri": .string(Self.uri)], "position": ["line": 1, "character": 7],
            ],
        ])
        #expect(nothing.map(\.compactJSON) == [#"{"id":2,"jsonrpc":"2.0","result":null}"#])
        let symbols = await server.handle([
            "jsonrpc": "2.0", "id": 3, "method": "textDocument/documentSymbol",
            "params": [
                "textDocument": ["uri": .string(Self.uri)]
            ],
        ])
        #expect(
            symbols.map(\.compactJSON) == [
                #"{"id":3,"jsonrpc":"2.0","result":[{"kind":13,"name":"$n","range":"#
                    + #"{"end":{"character":7,"line":1},"start":{"character":0,"line":1}},"selectionRange":"#
                    + #"{"end":{"character":5,"line":1},"start":{"character":4,"line":1}}}]}"#
            ]
        )
        let unknown = await server.handle(["jsonrpc": "2.0", "id": "x", "method": "workspace/symbol", "params": [:]])
        #expect(
            unknown.map(\.compactJSON) == [
                #"{"error":{"code":-32601,"message":"'workspace/symbol' is not a method bts lsp answers"},"#
                    + #""id":"x","jsonrpc":"2.0"}"#
            ]
        )
        let closed = await server.handle([
            "jsonrpc": "2.0", "method": "textDocument/didClose",
            "params": [
                "textDocument": ["uri": .string(Self.uri)]
            ],
        ])
        #expect(
            closed.map(\.compactJSON) == [
                #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":"#
                    + #"{"diagnostics":[],"uri":"file:///tmp/script.bts"}}"#
            ]
        )
        let shutdown = await server.handle(["jsonrpc": "2.0", "id": 4, "method": "shutdown"])
        #expect(shutdown.map(\.compactJSON) == [#"{"id":4,"jsonrpc":"2.0","result":null}"#])
    }
}

@Suite("language server framing and positions")
struct MessageFramingTests {
    @Test func messagesArriveWholeHoweverTheBytesAreCut() {
        let bodies = ["{\"a\":1}", "{\"text\":\"é📚\"}", "{}"]
        let stream = bodies.flatMap { MessageReader.frame(Array($0.utf8)) }
        for cut in [1, 2, 7, 13, stream.count] {
            var reader = MessageReader()
            var found: [String] = []
            var index = 0
            while index < stream.count {
                reader.append(stream[index..<min(stream.count, index + cut)])
                index += cut
                while let frame = reader.next() {
                    if case .message(let body) = frame { found.append(String(decoding: body, as: UTF8.self)) }
                }
            }
            #expect(found == bodies, "cut \(cut)")
        }
    }

    @Test func badHeadersAndHugeBodiesAreDroppedAndTheStreamGoesOn() {
        var reader = MessageReader()
        reader.append(Array("Content-Type: x\r\n\r\n".utf8) + MessageReader.frame(Array("{}".utf8)))
        #expect(reader.next() == .badHeader("no Content-Length in the header"))
        #expect(reader.next() == .message(Array("{}".utf8)))
        var huge = MessageReader()
        let length = MessageReader.maxBody + 10
        huge.append(Array("content-length: \(length)\r\n\r\n".utf8) + [UInt8](repeating: 32, count: 1000))
        #expect(huge.next() == .oversized(length))
        huge.append([UInt8](repeating: 32, count: length - 1000))
        huge.append(MessageReader.frame(Array("[]".utf8)))
        #expect(huge.next() == .message(Array("[]".utf8)), "the skipped body's bytes are not read as a header")
        var endless = MessageReader()
        endless.append([UInt8](repeating: 65, count: MessageReader.maxHeader + 1))
        #expect(endless.next() == .badHeader("a header longer than \(MessageReader.maxHeader) bytes"))
        var negative = MessageReader()
        negative.append(Array("Content-Length: -4\r\n\r\n".utf8))
        #expect(negative.next() == .badHeader("no Content-Length in the header"))
    }

    @Test func positionsRoundTripInUTF16() {
        let index = LineIndex("ab\ré📚x\nsecond\n")
        #expect(index.lineCount == 3)
        // Line 0 is "ab\ré📚x" (the \r is not a line break on its own).
        #expect(index.position(of: 3) == (0, 3))
        #expect(index.position(of: 5) == (0, 4), "after é")
        #expect(index.position(of: 9) == (0, 6), "after 📚 (two units)")
        #expect(index.offset(line: 0, character: 6) == 9)
        #expect(index.offset(line: 0, character: 5) == 5, "inside a surrogate pair: the scalar's start")
        #expect(index.offset(line: 1, character: 99) == 17, "past the end of a line: its end")
        #expect(index.offset(line: 7, character: 0) == index.bytes.count)
        #expect(index.position(of: 11) == (1, 0))
    }
}
