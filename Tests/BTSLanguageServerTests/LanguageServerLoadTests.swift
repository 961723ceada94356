import BTSLanguage
import BooksTrackContract
import Foundation
import Testing

@testable import BTSLanguageServer

/// The language server with big documents, many of them, and quick fixes, message by message (the
/// stream around it: `LanguageServerProcessTests`).
@Suite("language server under load")
struct LanguageServerLoadTests {
    typealias Client = LanguageServerTests

    static func codeActions(
        _ server: LanguageServer,
        line: Int,
        character: Int = 1,
        only: [String]? = nil,
        uri: String = Client.uri
    ) async -> [JSONValue] {
        var context: [String: JSONValue] = ["diagnostics": []]
        if let only { context["only"] = .array(only.map(JSONValue.string)) }
        let position: JSONValue = ["line": .number(Double(line)), "character": .number(Double(character))]
        let replies = await server.handle([
            "jsonrpc": "2.0", "id": 7, "method": "textDocument/codeAction",
            "params": [
                "textDocument": ["uri": .string(uri)], "range": ["start": position, "end": position],
                "context": .object(context),
            ],
        ])
        return replies.first?["result"]?.arrayValue ?? []
    }

    @Test func changesQueuedAreCheckedOnceAtTheirNewestTextAndRequestsDoNotWait() async throws {
        let (server, home) = try await Client.started()
        let bad = String(repeating: "serch foo\n", count: 10_000)
        #expect(Client.diagnostics(await Client.open(server, bad)).count == LanguageServer.maxDiagnostics + 1)
        // Five changes, each "serch" → "search" on the next line, none checked yet; a hover meanwhile.
        for version in 2...6 {
            let replies = await Client.change(
                server,
                version: version,
                [
                    [
                        "range": [
                            "start": ["line": .number(Double(version - 2)), "character": 0],
                            "end": ["line": .number(Double(version - 2)), "character": 5],
                        ], "text": "search",
                    ]
                ]
            )
            #expect(replies.isEmpty, "a change is answered by nothing until its check")
        }
        let hover = await Client.request(server, "textDocument/hover", line: 0, character: 2)
        #expect(hover?["contents"]?["value"]?.stringValue?.hasPrefix("search — ") == true, "answered before any check")
        let published = await server.checkDue()
        #expect(published.count == 1, "one check, of the newest text")
        #expect(published.first?["params"]?["version"] == 6)
        #expect(
            Client.diagnostics(published).first?.hasPrefix("5:0-5:5 unknown command 'serch'") == true,
            "\(Client.diagnostics(published).prefix(1))"
        )
        await Client.close(home)
    }

    @Test func aDocumentPublishesAtMostTheCapAndOneDiagnosticForTheRest() async throws {
        let (server, home) = try await Client.started()
        let lines = LanguageServer.maxDiagnostics + 234
        let found = Client.diagnostics(await Client.open(server, String(repeating: "serch foo\n", count: lines)))
        #expect(found.count == LanguageServer.maxDiagnostics + 1)
        #expect(
            found.last == "\(LanguageServer.maxDiagnostics):0-\(LanguageServer.maxDiagnostics):0 … 234 more not shown "
                + "(bts lsp publishes the first \(LanguageServer.maxDiagnostics) of a document)",
            "\(found.suffix(2))"
        )
        let fine = Client.diagnostics(await Client.open(server, String(repeating: "serch foo\n", count: 3), version: 2))
        #expect(fine.count == 3)
        await Client.close(home)
    }

    /// Documents of 6.4 MB, opened one after another: those that fit in the budget are followed;
    /// the next is set aside (its text dropped, one warning); one closed makes room for it again.
    @Test func openDocumentsStayWithinTheirBudget() async throws {
        let (server, home) = try await Client.started()
        let big = String(repeating: "search title dune --limit 5 # a comment to make the line longer\n", count: 100_000)
        let footprint = LineIndex(big).footprint
        let fitting = LanguageServer.openDocumentsBudget / footprint
        var warnings: [String] = []
        for number in 0...(fitting + 1) {
            let found = Client.diagnostics(await Client.open(server, big, uri: "file:///tmp/big\(number).bts"))
            warnings.append(found.first ?? "")
        }
        #expect(warnings.prefix(fitting).allSatisfy { $0.contains("larger than 1 MB") }, "\(warnings)")
        #expect(warnings.suffix(2).allSatisfy { $0.contains("bts lsp set this document aside") }, "\(warnings)")
        let held = await server.documents.values.reduce(0) { $0 + $1.index.footprint }
        #expect(held <= LanguageServer.openDocumentsBudget)
        let aside = "file:///tmp/big\(fitting).bts"
        let hover = await server.handle([
            "jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
            "params": [
                "textDocument": ["uri": .string(aside)], "position": ["line": 0, "character": 1],
            ],
        ])
        #expect(hover.first?["result"] == .null, "nothing offered, no error: \(hover)")
        // An incremental change cannot be followed without the text; a whole one, with room, can.
        _ = await Client.send(
            server,
            [
                "jsonrpc": "2.0", "method": "textDocument/didClose",
                "params": [
                    "textDocument": ["uri": "file:///tmp/big0.bts"]
                ],
            ]
        )
        _ = await Client.change(
            server,
            version: 2,
            [
                [
                    "range": [
                        "start": ["line": 0, "character": 0],
                        "end": ["line": 0, "character": 0],
                    ], "text": "x",
                ]
            ],
            uri: aside
        )
        #expect(await server.documents[aside] == nil)
        let taken =
            await Client.change(server, version: 3, [["text": "serch x\n"]], uri: aside) + (await server.checkDue())
        #expect(
            Client.diagnostics(taken).first?.hasPrefix("0:0-0:5 unknown command 'serch'") == true,
            "\(Client.diagnostics(taken))"
        )
        await Client.close(home)
    }

    @Test func aFixItIsAQuickFixAndFormattingASourceAction() async throws {
        let (server, home) = try await Client.started()
        _ = await Client.open(server, Client.broken + "\nfor x in a b\necho   $x\nend\n")
        let actions = await Self.codeActions(server, line: 2)
        let fix = actions.first { $0["kind"] == "quickfix" }
        #expect(fix?["title"] == "Replace 'serch' with 'search'", "\(actions)")
        let edit = fix?["edit"]?["changes"]?[Client.uri]?.arrayValue?.first
        #expect(edit?["newText"] == "search")
        #expect(edit?["range"] == ["start": ["line": 2, "character": 0], "end": ["line": 2, "character": 5]])
        #expect(
            fix?["diagnostics"]?.arrayValue?.first?["message"]?.stringValue?.hasPrefix("unknown command 'serch'")
                == true
        )
        let option = await Self.codeActions(server, line: 3, character: 20, only: ["quickfix"])
        #expect(option.compactMap { $0["title"]?.stringValue } == ["Replace '--limt' with '--limit'"], "\(option)")
        #expect(await Self.codeActions(server, line: 0, only: ["quickfix"]).isEmpty, "no diagnostic there")
        // bts fmt's layout, for source.fixAll (the action a save runs) and source.
        let format = await Self.codeActions(server, line: 0, only: ["source.fixAll"])
        #expect(format.compactMap { $0["title"]?.stringValue } == ["Format document"])
        let formatting = await Client.request(server, "textDocument/formatting")
        #expect(format.first?["edit"]?["changes"]?[Client.uri] == formatting)
        #expect(await Self.codeActions(server, line: 0, only: ["source"]).count == 1)
        // After a change not checked yet, the fixes are of another text: none is offered.
        _ = await Client.change(
            server,
            version: 2,
            [
                [
                    "range": [
                        "start": ["line": 0, "character": 0],
                        "end": ["line": 0, "character": 0],
                    ], "text": "\n",
                ]
            ]
        )
        #expect(await Self.codeActions(server, line: 3, only: ["quickfix"]).isEmpty)
        _ = await server.checkDue()
        #expect(await Self.codeActions(server, line: 3, only: ["quickfix"]).count == 1)
        await Client.close(home)
    }

    @Test func aByteOrderMarkInAMessageIsShown() async throws {
        let (server, home) = try await Client.started()
        let found = Client.diagnostics(await Client.open(server, "search title dune\n\u{FEFF}serch x\n"))
        #expect(found.first?.contains("unknown command '<U+FEFF>serch'") == true, "\(found)")
        await Client.close(home)
    }

    /// Semantic tokens and folding ranges of 200,000 lines: one token a line is 1,000,000 integers,
    /// and a change in the middle is a delta of a few; a denser document gets its first
    /// ``SemanticTokenProvider/maxTokens`` tokens; range formatting, like formatting, leaves a
    /// document over 1 MB as it is.
    @Test func twoHundredThousandLinesGetTheirTokensFoldsAndDeltas() async throws {
        typealias Tokens = LanguageServerTokenTests
        let (server, home) = try await Client.started()
        let lines = 200_000
        _ = await Client.open(server, String(repeating: "search dune\n", count: lines))
        let full = await Tokens.ask(server, "textDocument/semanticTokens/full")
        let data = Tokens.integers(full?["data"])
        #expect(data.count == 5 * lines)
        #expect(Array(data.suffix(10)) == [1, 0, 6, 1, 0, 1, 0, 6, 1, 0])
        let id = try #require(full?["resultId"]?.stringValue)
        let middle: JSONValue = ["line": .number(Double(lines / 2)), "character": 0]
        _ = await Client.change(
            server,
            version: 2,
            [
                [
                    "range": ["start": middle, "end": ["line": .number(Double(lines / 2)), "character": 6]],
                    "text": "serch",
                ]
            ]
        )
        let delta = await Tokens.ask(
            server,
            "textDocument/semanticTokens/full/delta",
            ["previousResultId": .string(id)]
        )
        let edits = delta?["edits"]?.arrayValue ?? []
        #expect(edits.count == 1 && edits.allSatisfy { ($0["data"]?.arrayValue?.count ?? 99) <= 5 }, "\(edits)")
        #expect(edits.first?["start"]?.intValue == 5 * (lines / 2))
        let block = "if $x == 1\n  echo a\nend\n"
        _ = await Client.open(server, String(repeating: block, count: lines / 3), version: 3)
        let folds = await Tokens.ask(server, "textDocument/foldingRange")?.arrayValue ?? []
        #expect(folds.count == lines / 3)
        #expect(folds.last?["startLine"]?.intValue == lines / 3 * 3 - 3)
        #expect(
            await LanguageServerTokenTests.rangeFormatting(server, (0, 0), (lines, 0)).isEmpty,
            "over 1 MB: not formatted"
        )
        let dense = String(repeating: "search title dune --limit 5 # c\n", count: lines)
        _ = await Client.open(server, dense, version: 4, uri: "file:///tmp/dense.bts")
        let capped = await Tokens.ask(server, "textDocument/semanticTokens/full", uri: "file:///tmp/dense.bts")
        #expect(Tokens.integers(capped?["data"]).count == 5 * SemanticTokenProvider.maxTokens)
        await Client.close(home)
    }

    /// Semantic tokens, folding ranges and range formatting sent garbage: an error or a result,
    /// one reply each.
    @Test func garbageParametersOfTheTokenMethodsGetAnErrorOrAResult() async throws {
        let (server, home) = try await Client.started()
        _ = await Client.open(server, LanguageServerTokenTests.script)
        let methods = [
            "textDocument/semanticTokens/full", "textDocument/semanticTokens/full/delta",
            "textDocument/semanticTokens/range", "textDocument/foldingRange", "textDocument/rangeFormatting",
        ]
        let garbage: [JSONValue] = [
            .null, [], "x", 7, ["textDocument": 5], ["textDocument": ["uri": 5]],
            ["textDocument": ["uri": "file:///nowhere.bts"]],
            [
                "textDocument": ["uri": .string(Client.uri)], "range": "x", "previousResultId": 7,
            ],
            [
                "textDocument": ["uri": .string(Client.uri)],
                "range": ["start": ["line": -5, "character": 1e300], "end": ["line": "z", "character": -1]],
            ],
            [
                "textDocument": ["uri": .string(Client.uri)],
                "range": ["start": ["line": 1e15, "character": 0], "end": ["line": 0, "character": 0]],
            ],
        ]
        for method in methods {
            for params in garbage {
                let replies = await server.handle([
                    "jsonrpc": "2.0", "id": 3, "method": .string(method), "params": params,
                ])
                #expect(replies.count == 1, "\(method) \(params)")
                let reply = replies.first
                #expect(
                    reply?["error"]?["code"] == -32602 || reply?["result"] != nil,
                    "\(method) \(params): \(String(describing: reply))"
                )
            }
        }
        await Client.close(home)
    }
}
