import BTSLanguageServer
import BooksTrackContract
import Foundation
import Testing

/// Semantic tokens (whole, delta, range), folding ranges and range formatting, message by message.
@Suite("language server tokens, folding and range formatting")
struct LanguageServerTokenTests {
    typealias Client = LanguageServerTests

    /// A script with a token of every kind, a multi-line string, a misspelt command and blocks.
    static let script = """
        # Books, twice.
        # second comment line
        search title "the hunger games" --limit 3
        for book in ${_.results[0].isbn}
          echo "é: $book" 🙂 > out.txt
        end
        serch dune
        set n 1
        if $n == 1
          echo one
        elif not exists $n
          echo two
        else
          echo "a
        bc"
        end
        """

    /// The result of `method` on the document with `params` added to its `textDocument`.
    static func ask(
        _ server: LanguageServer,
        _ method: String,
        _ params: [String: JSONValue] = [:],
        uri: String = Client.uri
    ) async -> JSONValue? {
        var all = params
        all["textDocument"] = ["uri": .string(uri)]
        let replies = await server.handle([
            "jsonrpc": "2.0", "id": 5, "method": .string(method), "params": .object(all),
        ])
        return replies.first?["result"]
    }

    static func integers(_ value: JSONValue?) -> [Int] {
        (value?.arrayValue ?? []).compactMap(\.intValue)
    }

    /// The data's tokens with absolute positions: `line:character+length type[.modifier…]`.
    static func decoded(_ data: [Int], legend: [String], modifiers: [String]) -> [String] {
        var tokens: [String] = []
        var (line, start) = (0, 0)
        for token in stride(from: 0, to: data.count - 4, by: 5) {
            line += data[token]
            start = data[token] == 0 ? start + data[token + 1] : data[token + 1]
            let type = legend.indices.contains(data[token + 3]) ? legend[data[token + 3]] : "?"
            let marks = modifiers.indices.filter { data[token + 4] & (1 << $0) != 0 }.map { "." + modifiers[$0] }
            tokens.append("\(line):\(start)+\(data[token + 2]) \(type)\(marks.joined())")
        }
        return tokens
    }

    static func legend() async -> (types: [String], modifiers: [String]) {
        // The server is initialized already: the legend is read from a fresh one's answer.
        let fresh = LanguageServer()
        let answer = await fresh.handle(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": [:]])
        let legend = answer.first?["result"]?["capabilities"]?["semanticTokensProvider"]?["legend"]
        return (
            (legend?["tokenTypes"]?.arrayValue ?? []).compactMap(\.stringValue),
            (legend?["tokenModifiers"]?.arrayValue ?? []).compactMap(\.stringValue)
        )
    }

    @Test func theCapabilitiesStateTheLegendOnceAndTheNewMethods() async throws {
        let server = LanguageServer()
        let answer = await server.handle(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": [:]])
        let capabilities = answer.first?["result"]?["capabilities"]
        let provider = capabilities?["semanticTokensProvider"]
        #expect(
            provider?["legend"]?["tokenTypes"]
                == [
                    "keyword", "function", "method", "parameter", "variable", "property", "string", "number",
                    "operator", "comment",
                ]
        )
        #expect(provider?["legend"]?["tokenModifiers"] == ["declaration", "readonly"])
        #expect(provider?["full"]?["delta"] == true && provider?["range"] == true)
        #expect(capabilities?["foldingRangeProvider"] == true)
        #expect(capabilities?["documentRangeFormattingProvider"] == true)
    }

    @Test func everyKindOfTokenAtItsUTF16PlaceAndAStringSplitAtItsLineBreak() async throws {
        let (server, home) = try await Client.started()
        _ = await Client.open(server, Self.script)
        let (types, modifiers) = await Self.legend()
        let result = await Self.ask(server, "textDocument/semanticTokens/full")
        #expect(result?["resultId"]?.stringValue?.isEmpty == false)
        let tokens = Self.decoded(Self.integers(result?["data"]), legend: types, modifiers: modifiers)
        #expect(
            tokens == [
                "0:0+15 comment", "1:0+21 comment",
                "2:0+6 function", "2:7+5 method", "2:13+18 string", "2:32+7 parameter", "2:40+1 number",
                "3:0+3 keyword", "3:4+4 variable.declaration", "3:9+2 keyword", "3:12+3 variable.readonly",
                "3:15+8 property", "3:23+3 property", "3:26+5 property",
                "4:2+4 function", "4:7+4 string", "4:11+5 variable", "4:16+1 string", "4:21+1 operator",
                "5:0+3 keyword",
                "7:0+3 function", "7:4+1 variable.declaration", "7:6+1 number",
                "8:0+2 keyword", "8:3+2 variable", "8:6+2 operator", "8:9+1 number",
                "9:2+4 function",
                "10:0+4 keyword", "10:5+3 operator", "10:9+6 operator", "10:16+2 variable",
                "11:2+4 function", "12:0+4 keyword",
                "13:2+4 function", "13:7+2 string", "14:0+3 string",
                "15:0+3 keyword",
            ],
            "\(tokens)"
        )
        await Client.close(home)
    }

    @Test func anAliasTheDocumentDefinesIsAFunctionAndAnUnknownCommandHasNoToken() async throws {
        let (server, home) = try await Client.started()
        _ = await Client.open(server, "top dune\nalias top search title $1\ntop dune\n'search' x\n")
        let (types, modifiers) = await Self.legend()
        let data = Self.integers(await Self.ask(server, "textDocument/semanticTokens/full")?["data"])
        #expect(
            Self.decoded(data, legend: types, modifiers: modifiers) == [
                "1:0+5 function", "1:6+3 function.declaration", "1:10+6 function", "1:17+5 method",
                "1:23+2 variable.readonly", "2:0+3 function", "3:0+8 function",
            ],
            "\(Self.decoded(data, legend: types, modifiers: modifiers))"
        )
        await Client.close(home)
    }

    /// Random edits to a script; after each, the delta's edits applied to the previous data give the
    /// data of the whole new text, and the delta's id names the new result.
    @Test func deltasAppliedToThePreviousDataGiveTheNewData() async throws {
        let (server, home) = try await Client.started()
        var text = Self.script
        _ = await Client.open(server, text)
        let first = await Self.ask(server, "textDocument/semanticTokens/full")
        var previous = Self.integers(first?["data"])
        var id = try #require(first?["resultId"]?.stringValue)
        let pieces = [
            "search title dune\n", "# note\n", "for x in a b\n", "end\n", "echo \"é $x\"\n", "  ", "--limit 5 ",
            "🙂", "\"", "${_.a[1]}", "x", "\n", "if $x == 2\n", "; ", "| grep a\n", "> f ",
        ]
        var random = SplitMix(seed: 7)
        var edited = 0
        for version in 2...80 {
            var characters = Array(text)
            if characters.isEmpty || random.next() % 3 != 0 {
                let at = Int(random.next() % UInt64(characters.count + 1))
                characters.insert(contentsOf: pieces[Int(random.next() % UInt64(pieces.count))], at: at)
            } else {
                let at = Int(random.next() % UInt64(characters.count))
                let length = min(characters.count - at, Int(random.next() % 12) + 1)
                characters.removeSubrange(at..<(at + length))
            }
            text = String(characters)
            _ = await Client.change(server, version: version, [["text": .string(text)]])
            let delta = await Self.ask(
                server,
                "textDocument/semanticTokens/full/delta",
                ["previousResultId": .string(id)]
            )
            let edits = try #require(delta?["edits"]?.arrayValue, "a delta: \(String(describing: delta))")
            var applied = previous
            for edit in edits.reversed() {
                let start = try #require(edit["start"]?.intValue)
                let count = try #require(edit["deleteCount"]?.intValue)
                applied.replaceSubrange(start..<(start + count), with: Self.integers(edit["data"]))
            }
            if !edits.isEmpty { edited += 1 }
            let whole = Self.integers(
                await Self.ask(
                    server,
                    "textDocument/semanticTokens/range",
                    ["range": ["start": ["line": 0, "character": 0], "end": ["line": 1_000_000, "character": 0]]]
                )?["data"]
            )
            #expect(applied == whole, "version \(version): \(text.debugDescription)")
            previous = whole
            id = try #require(delta?["resultId"]?.stringValue)
        }
        #expect(edited > 40, "most random edits change the tokens")
        // A previous id the server does not hold: the whole result.
        let unknown = await Self.ask(server, "textDocument/semanticTokens/full/delta", ["previousResultId": "nope"])
        #expect(Self.integers(unknown?["data"]) == previous && unknown?["resultId"] != nil)
        await Client.close(home)
    }

    @Test func aRangeHasTheTokensInsideIt() async throws {
        let (server, home) = try await Client.started()
        _ = await Client.open(server, Self.script)
        let (types, modifiers) = await Self.legend()
        let data = Self.integers(
            await Self.ask(
                server,
                "textDocument/semanticTokens/range",
                ["range": ["start": ["line": 3, "character": 5], "end": ["line": 4, "character": 9]]]
            )?["data"]
        )
        // From inside `book` to inside the string: both cut at the range's ends.
        #expect(
            Self.decoded(data, legend: types, modifiers: modifiers) == [
                "3:5+3 variable.declaration", "3:9+2 keyword", "3:12+3 variable.readonly", "3:15+8 property",
                "3:23+3 property", "3:26+5 property", "4:2+4 function", "4:7+2 string",
            ],
            "\(Self.decoded(data, legend: types, modifiers: modifiers))"
        )
        await Client.close(home)
    }

    static func folds(_ server: LanguageServer) async -> [String] {
        (await Self.ask(server, "textDocument/foldingRange")?.arrayValue ?? []).map { range in
            let kind = range["kind"]?.stringValue.map { " " + $0 } ?? ""
            return "\(range["startLine"]?.intValue ?? -1)-\(range["endLine"]?.intValue ?? -1)\(kind)"
        }
    }

    @Test func blocksBranchesAndCommentRunsFold() async throws {
        let (server, home) = try await Client.started()
        _ = await Client.open(server, Self.script)
        #expect(await Self.folds(server) == ["0-1 comment", "3-4", "8-9", "10-11", "12-14"])
        let nested = """
            while $n < 3
              # one
              # two
              for x in a b
                echo $x
              end
              if $x == 1; echo one; end
              echo "# not a comment"
            end
            # alone
            echo x # after a command
            echo y # after another
            """
        _ = await Client.open(server, nested, version: 2)
        #expect(await Self.folds(server) == ["0-7", "1-2 comment", "3-4"])
        await Client.close(home)
    }

    @Test func aBrokenScriptFoldsWhatCloses() async throws {
        let (server, home) = try await Client.started()
        let broken = """
            end
            for x in "a
            b"
              echo ${x
            end
            else
            if $x == 1
              serch x
            elif
              echo ok
            """
        _ = await Client.open(server, broken)
        // The stray `end` and `else` fold nothing; the `if` never closes: only its first branch folds.
        #expect(await Self.folds(server) == ["1-3", "6-7"])
        await Client.close(home)
    }

    /// `text` with LSP edits applied (each range in UTF-16 positions of the text before any).
    static func applying(_ edits: [JSONValue], to text: String) -> String {
        let index = LineIndex(text)
        var bytes = index.bytes
        let located = edits.map { edit -> (Int, Int, String) in
            func offset(_ key: String) -> Int {
                let point = edit["range"]?[key]
                return index.offset(line: point?["line"]?.intValue ?? 0, character: point?["character"]?.intValue ?? 0)
            }
            return (offset("start"), offset("end"), edit["newText"]?.stringValue ?? "")
        }
        for (start, end, newText) in located.sorted(by: { $0.0 > $1.0 }) {
            bytes.replaceSubrange(start..<end, with: Array(newText.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func rangeFormatting(
        _ server: LanguageServer,
        _ start: (Int, Int),
        _ end: (Int, Int)
    ) async -> [JSONValue] {
        await Self.ask(
            server,
            "textDocument/rangeFormatting",
            [
                "range": [
                    "start": ["line": .number(Double(start.0)), "character": .number(Double(start.1))],
                    "end": ["line": .number(Double(end.0)), "character": .number(Double(end.1))],
                ],
                "options": ["tabSize": 4, "insertSpaces": true],
            ]
        )?.arrayValue ?? []
    }

    static let unformatted = """
        for x in a b
        echo   $x
            if $x == a
          echo    yes;
         end
        end


        search   title dune \\
        --limit 2
        """

    @Test func aRangeIsFormattedAtItsDepthAndNothingOutsideItChanges() async throws {
        let (server, home) = try await Client.started()
        _ = await Client.open(server, Self.unformatted)
        let whole = await Client.request(server, "textDocument/formatting")?.arrayValue?.first?["newText"]?.stringValue
        let formatted = try #require(whole)
        #expect(
            formatted
                == "for x in a b\n  echo $x\n  if $x == a\n    echo yes\n  end\nend\n\nsearch title dune \\\n  --limit 2\n"
        )
        // One line inside two blocks: indented for its depth.
        let inner = await Self.rangeFormatting(server, (3, 4), (3, 6))
        #expect(inner.count == 1)
        #expect(
            Self.applying(inner, to: Self.unformatted)
                == Self.unformatted.replacingOccurrences(of: "  echo    yes;\n", with: "    echo yes\n")
        )
        // A range ending at the start of a line leaves that line out.
        let two = await Self.rangeFormatting(server, (1, 0), (3, 0))
        let lines = Self.applying(two, to: Self.unformatted).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1] == "  echo $x" && lines[2] == "  if $x == a" && lines[3] == "  echo    yes;", "\(lines)")
        // The whole document, however the range is written (end before start): its formatting.
        for (start, end) in [((0, 0), (9, 9)), ((99, 0), (0, 0)), ((0, 3), (500, 0))] {
            let all = await Self.rangeFormatting(server, start, end)
            #expect(Self.applying(all, to: Self.unformatted) == formatted, "\(start)-\(end): \(all)")
        }
        // The blank lines (two: one is kept) and the continued command, each alone.
        let blank = await Self.rangeFormatting(server, (6, 0), (7, 0))
        #expect(blank.isEmpty, "the group of blank lines reaches past line 6")
        let blanks = await Self.rangeFormatting(server, (6, 0), (8, 0))
        #expect(Self.applying(blanks, to: Self.unformatted).contains("end\n\nsearch   title"))
        let continued = await Self.rangeFormatting(server, (8, 2), (9, 3))
        #expect(
            Self.applying(continued, to: Self.unformatted).hasSuffix("end\n\n\nsearch title dune \\\n  --limit 2\n")
        )
        // A formatted line: no edit.
        _ = await Client.open(server, formatted, version: 2)
        #expect(await Self.rangeFormatting(server, (0, 0), (9, 0)).isEmpty)
        await Client.close(home)
    }

    /// Every range of whole lines: the lines before and after it are kept byte for byte, and the
    /// text still formats to the document's formatting.
    @Test func everyRangeOfLinesChangesOnlyItsLines() async throws {
        let (server, home) = try await Client.started()
        let text = Self.unformatted + "\n# a comment   \nif $x == 1;  echo one;   end\n\n\n"
        _ = await Client.open(server, text)
        let formatted = try #require(
            await Client.request(server, "textDocument/formatting")?.arrayValue?.first?["newText"]?.stringValue
        )
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n" }
        for first in 0..<lines.count {
            for end in (first + 1)...lines.count {
                let edits = await Self.rangeFormatting(server, (first, 0), (end, 0))
                let result = Self.applying(edits, to: text)
                let before = lines[..<first].joined()
                let after = lines[end...].joined().dropLast()
                #expect(result.hasPrefix(before) && result.hasSuffix(after), "lines \(first)..<\(end): \(edits)")
                _ = await Client.open(server, result, version: 2, uri: "file:///tmp/result.bts")
                let again = await Self.ask(server, "textDocument/formatting", uri: "file:///tmp/result.bts")
                let reformatted = again?.arrayValue?.first?["newText"]?.stringValue ?? result
                #expect(reformatted == formatted, "lines \(first)..<\(end)")
            }
        }
        await Client.close(home)
    }

    @Test func aScriptWithSyntaxErrorsOrCRLFLines() async throws {
        let (server, home) = try await Client.started()
        _ = await Client.open(server, "echo  a\necho \"unclosed\n")
        #expect(await Self.rangeFormatting(server, (0, 0), (1, 0)).isEmpty, "syntax errors: no edit")
        let crlf = "if $x == 1\r\necho  a\r\nend\r\n"
        _ = await Client.open(server, crlf, version: 2)
        let edits = await Self.rangeFormatting(server, (1, 0), (1, 7))
        #expect(Self.applying(edits, to: crlf) == "if $x == 1\r\n  echo a\nend\r\n", "\(edits)")
        await Client.close(home)
    }
}

/// A seeded random number generator (SplitMix64), so a failing run can be repeated.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
