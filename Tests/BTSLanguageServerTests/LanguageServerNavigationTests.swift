import BTSLanguageServer
import BTSShell
import BooksTrackContract
import Foundation
import Testing

/// Definition, references, rename and a variable's hover, message by message (the server as
/// `LanguageServerTests` drives it).
@Suite("language server navigation")
struct LanguageServerNavigationTests {
    static let uri = LanguageServerTests.uri

    /// Loops of one name, one inside the other, beside a script's variable.
    static let nested = """
        set who "Frank Herbert"
        search author "$who" --limit 3
        for book in ${_.results}
          echo "${book.title} by $who"
          for book in ${book.authors}
            echo $book
          end
          echo book
        end
        """

    /// The reply to a request at `line:character` with `extra` parameters: its result, or its error.
    static func ask(
        _ server: LanguageServer,
        _ method: String,
        line: Int,
        character: Int,
        _ extra: [String: JSONValue] = [:]
    ) async -> (result: JSONValue?, error: JSONValue?) {
        var params: [String: JSONValue] = [
            "textDocument": ["uri": .string(uri)],
            "position": ["line": .number(Double(line)), "character": .number(Double(character))],
        ]
        params.merge(extra) { $1 }
        let replies = await server.handle([
            "jsonrpc": "2.0", "id": 11, "method": .string(method), "params": .object(params),
        ])
        return (replies.first?["result"], replies.first?["error"])
    }

    /// `line:character-line:character` of an LSP range.
    static func span(_ range: JSONValue?) -> String {
        func point(_ key: String) -> String {
            "\(range?[key]?["line"]?.interpolationText ?? "?"):\(range?[key]?["character"]?.interpolationText ?? "?")"
        }
        return "\(point("start"))-\(point("end"))"
    }

    /// `text` with a workspace edit's edits of the document applied (positions in UTF-16 units).
    static func applying(_ edit: JSONValue?, to text: String) -> String {
        let edits = edit?["changes"]?[uri]?.arrayValue ?? []
        var lines = text.components(separatedBy: "\n").map { Array($0.utf16) }
        let sorted = edits.sorted { first, second in
            func key(_ edit: JSONValue) -> (Int, Int) {
                (
                    Int(edit["range"]?["start"]?["line"]?.interpolationText ?? "") ?? 0,
                    Int(edit["range"]?["start"]?["character"]?.interpolationText ?? "") ?? 0
                )
            }
            return key(first) > key(second)
        }
        for edit in sorted {
            let line = Int(edit["range"]?["start"]?["line"]?.interpolationText ?? "") ?? 0
            let start = Int(edit["range"]?["start"]?["character"]?.interpolationText ?? "") ?? 0
            let end = Int(edit["range"]?["end"]?["character"]?.interpolationText ?? "") ?? 0
            lines[line].replaceSubrange(start..<end, with: Array((edit["newText"]?.stringValue ?? "").utf16))
        }
        return lines.map { String(decoding: $0, as: UTF16.self) }.joined(separator: "\n")
    }

    @Test func theServerAnnouncesDefinitionReferencesAndRename() async {
        let server = LanguageServer()
        let first = await server.handle([
            "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["capabilities": [:]],
        ])
        let capabilities = first.first?["result"]?["capabilities"]
        #expect(capabilities?["definitionProvider"] == true)
        #expect(capabilities?["referencesProvider"] == true)
        #expect(capabilities?["renameProvider"]?["prepareProvider"] == true)
    }

    @Test func definitionAndReferencesFollowTheBindingNotTheName() async throws {
        let (server, home) = try await LanguageServerTests.started()
        _ = await LanguageServerTests.open(server, Self.nested)
        // `$who` on line 3 is set on line 0.
        let definition = await Self.ask(server, "textDocument/definition", line: 3, character: 26)
        #expect(definition.result?.arrayValue?.map { Self.span($0["range"]) } == ["0:4-0:7"], "\(definition)")
        #expect(definition.result?.arrayValue?.first?["uri"]?.stringValue == Self.uri)
        // The inner `$book` is the inner loop's.
        let inner = await Self.ask(server, "textDocument/definition", line: 5, character: 11)
        #expect(inner.result?.arrayValue?.map { Self.span($0["range"]) } == ["4:6-4:10"], "\(inner)")
        let withDeclaration = await Self.ask(
            server,
            "textDocument/references",
            line: 2,
            character: 5,
            ["context": ["includeDeclaration": true]]
        )
        #expect(
            withDeclaration.result?.arrayValue?.map { Self.span($0["range"]) } == [
                "2:4-2:8", "3:10-3:14", "4:16-4:20",
            ],
            "\(withDeclaration)"
        )
        let without = await Self.ask(
            server,
            "textDocument/references",
            line: 2,
            character: 5,
            ["context": ["includeDeclaration": false]]
        )
        #expect(without.result?.arrayValue?.map { Self.span($0["range"]) } == ["3:10-3:14", "4:16-4:20"])
        // On a command or a literal, nothing.
        #expect(await Self.ask(server, "textDocument/definition", line: 1, character: 2).result == .null)
        #expect(await Self.ask(server, "textDocument/references", line: 7, character: 8).result == .null)
        await LanguageServerTests.close(home)
    }

    @Test func renamingAcrossNestedLoopsRenamesOneBindingOnly() async throws {
        let (server, home) = try await LanguageServerTests.started()
        _ = await LanguageServerTests.open(server, Self.nested)
        let prepared = await Self.ask(server, "textDocument/prepareRename", line: 2, character: 6)
        #expect(Self.span(prepared.result?["range"]) == "2:4-2:8", "\(prepared)")
        #expect(prepared.result?["placeholder"] == "book")

        let outer = await Self.ask(server, "textDocument/rename", line: 2, character: 6, ["newName": "item"])
        #expect(
            Self.applying(outer.result, to: Self.nested) == """
                set who "Frank Herbert"
                search author "$who" --limit 3
                for item in ${_.results}
                  echo "${item.title} by $who"
                  for book in ${item.authors}
                    echo $book
                  end
                  echo book
                end
                """,
            "\(outer)"
        )
        let inner = await Self.ask(server, "textDocument/rename", line: 5, character: 11, ["newName": "author"])
        #expect(
            Self.applying(inner.result, to: Self.nested) == """
                set who "Frank Herbert"
                search author "$who" --limit 3
                for book in ${_.results}
                  echo "${book.title} by $who"
                  for author in ${book.authors}
                    echo $author
                  end
                  echo book
                end
                """,
            "\(inner)"
        )
        // From a use in a quoted string, the script's variable: its `set`, both reads, no other word.
        let who = await Self.ask(server, "textDocument/rename", line: 1, character: 17, ["newName": "writer"])
        let renamed = Self.applying(who.result, to: Self.nested)
        #expect(renamed.hasPrefix("set writer \"Frank Herbert\"\nsearch author \"$writer\" --limit 3\n"), "\(renamed)")
        #expect(renamed.contains("by $writer\"") && !renamed.contains("$who"), "\(renamed)")
        await LanguageServerTests.close(home)
    }

    @Test func aRenameThatWouldClashOrIsNoNameIsRefused() async throws {
        let (server, home) = try await LanguageServerTests.started()
        _ = await LanguageServerTests.open(
            server,
            Self.nested + "\nalias top search dune\nalias hg search 9780439023481"
        )
        func refusal(_ line: Int, _ character: Int, _ name: String) async -> String {
            let reply = await Self.ask(
                server,
                "textDocument/rename",
                line: line,
                character: character,
                ["newName": .string(name)]
            )
            #expect(reply.error?["code"] == -32803, "\(reply)")
            return reply.error?["message"]?.stringValue ?? "no error: \(reply)"
        }
        let merge = await refusal(0, 5, "book")
        #expect(merge.contains("'$book' is already a variable") && merge.contains("(line 3)"), "\(merge)")
        #expect(await refusal(5, 11, "who").contains("already a variable"))
        #expect(await refusal(0, 5, "2x").contains("not a variable name"))
        #expect(await refusal(0, 5, "env").contains("not a variable name"))
        #expect(await refusal(0, 5, "output").contains("is a setting"))
        #expect(await refusal(9, 7, "hg").contains("already an alias"))
        #expect(await refusal(9, 7, "search").contains("bts command or keyword"))
        let alias = await Self.ask(server, "textDocument/rename", line: 9, character: 7, ["newName": "dune"])
        #expect(alias.result?["changes"]?[Self.uri]?.arrayValue?.count == 1, "\(alias)")
        await LanguageServerTests.close(home)
    }

    @Test func prepareRenameRefusesReservedNamesAndIgnoresCommandsAndLiterals() async throws {
        let (server, home) = try await LanguageServerTests.started()
        _ = await LanguageServerTests.open(
            server,
            "search title dune\necho ${_.count} ${env.HOME} ${_http.status} $1 'set x'\nfor b in a; echo $b; end\necho $PAGE"
        )
        for (character, word) in [(7, "$_"), (18, "env"), (30, "_http"), (45, "$1")] {
            let reply = await Self.ask(server, "textDocument/prepareRename", line: 1, character: character)
            #expect(reply.error?["message"]?.stringValue?.contains("cannot be renamed") == true, "\(word): \(reply)")
        }
        // A command, a quoted literal, a keyword: nothing to rename.
        #expect(await Self.ask(server, "textDocument/prepareRename", line: 0, character: 2).result == .null)
        #expect(await Self.ask(server, "textDocument/prepareRename", line: 1, character: 50).result == .null)
        #expect(await Self.ask(server, "textDocument/prepareRename", line: 2, character: 1).result == .null)
        // A variable from outside keeps the name `--var` gives it.
        let outside = await Self.ask(server, "textDocument/prepareRename", line: 3, character: 7)
        #expect(outside.error?["message"]?.stringValue?.contains("--var") == true, "\(outside)")
        await LanguageServerTests.close(home)
    }

    @Test func positionsAfterNonASCIITextCountUTF16() async throws {
        let (server, home) = try await LanguageServerTests.started()
        // "é" is 2 bytes and 1 UTF-16 unit; "📚" 4 bytes and 2 units: `$name` starts at character 14.
        let text = "echo \"Café 📚 $name\"\nset name x"
        _ = await LanguageServerTests.open(server, text)
        let prepared = await Self.ask(server, "textDocument/prepareRename", line: 0, character: 16)
        #expect(Self.span(prepared.result?["range"]) == "0:15-0:19", "\(prepared)")
        let renamed = await Self.ask(server, "textDocument/rename", line: 0, character: 15, ["newName": "título"])
        #expect(renamed.error?["message"]?.stringValue?.contains("not a variable name") == true, "\(renamed)")
        let ascii = await Self.ask(server, "textDocument/rename", line: 0, character: 15, ["newName": "title"])
        #expect(Self.applying(ascii.result, to: text) == "echo \"Café 📚 $title\"\nset title x", "\(ascii)")
        await LanguageServerTests.close(home)
    }

    @Test func hoverOnAVariableSaysWhereAndWhatItIsSet() async throws {
        let (server, home) = try await LanguageServerTests.started()
        _ = await LanguageServerTests.open(
            server,
            "set n 3\nsearch title dune\nfor book in ${_.results}\n  echo ${book.title} $n ${PAGE:-20}\nend\nalias top search dune\ntop"
        )
        func hover(_ line: Int, _ character: Int) async -> String {
            await Self.ask(server, "textDocument/hover", line: line, character: character).result?["contents"]?[
                "value"
            ]?.stringValue ?? "none"
        }
        #expect(await hover(3, 22) == "$n: variable (set)\nline 1: set to '3'")
        #expect(await hover(3, 10) == "$book: loop variable (line 3)\neach element of ${_.results}")
        let page = await hover(3, 27)
        #expect(page.contains("not set in this script") && page.contains("default '20'"), "\(page)")
        #expect(await hover(6, 1) == "top: alias\nline 6: runs search dune")
        // A command's help is still there.
        #expect(await hover(1, 2).hasPrefix("search"))
        await LanguageServerTests.close(home)
    }

    @Test func completionOffersALoopVariableInsideItsLoopOnly() async throws {
        let (server, home) = try await LanguageServerTests.started()
        _ = await LanguageServerTests.open(server, "set count 0\nfor book in a b\n  echo $\nend\necho $\n")
        func labels(_ line: Int, _ character: Int) async -> [String] {
            (await Self.ask(server, "textDocument/completion", line: line, character: character).result?["items"]?
                .arrayValue ?? [])
                .compactMap { $0["label"]?.stringValue }
        }
        let inside = await labels(2, 8)
        #expect(inside.contains("$book") && inside.contains("$count"), "\(inside)")
        let after = await labels(4, 6)
        #expect(!after.contains("$book") && after.contains("$count"), "\(after)")
        await LanguageServerTests.close(home)
    }
}
