import BTSLanguage
import BTSLanguageServer
import BTSShell
import BooksTrackContract
import Foundation
import TestSupport
import Testing

/// What a published diagnostic carries besides its message, message by message: its rule as the code
/// (the `rule` `bts check` and `bts test` report the same failure with), the places its notes point to, a quick fix for every
/// "did you mean"; and the symbols of a document that does not parse whole.
@Suite("language server: diagnostic codes, related places, quick fixes")
struct LanguageServerDiagnosticCodeTests {
    static let uri = "file:///tmp/codes.bts"

    /// The repository (for the language fuzzer's seed scripts).
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// A script with every kind of mistake the parser and the check report (one or more a line).
    static let mistakes = """
        serch dune
        search title dune --limt 5
        search title dune --limit 1 --limit 2
        search title dune --output jsn
        search title dune > out.json | sort
        echo ${_.items[0}
        echo ${_.items[x]}
        cache shwo
        help cache shwo
        set tim-ing on
        set timing onn
        if $n==6; echo six; end
        if $x contians y; echo c; end
        for $y in c; end
        for x inn a b; end
        end
        break
        if
        end
        elif $x
        else
        search
        library add
        expect
        echo "open
        """

    /// A server after `initialize`, its client showing related places or not.
    static func started(relatedInformation: Bool) async -> LanguageServer {
        let server = LanguageServer(checker: ScriptChecker())
        let capabilities: JSONValue =
            relatedInformation
            ? ["textDocument": ["publishDiagnostics": ["relatedInformation": true]]] : [:]
        _ = await server.handle([
            "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["capabilities": capabilities],
        ])
        _ = await server.handle(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        return server
    }

    /// The diagnostics published for `text` once opened.
    static func published(_ server: LanguageServer, _ text: String, version: Int = 1) async -> [JSONValue] {
        _ = await server.handle([
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": [
                "textDocument": [
                    "uri": .string(uri), "languageId": "bts", "version": .number(Double(version)),
                    "text": .string(text),
                ]
            ],
        ])
        let notification = await server.checkDue().first { $0["method"] == "textDocument/publishDiagnostics" }
        return notification?["params"]?["diagnostics"]?.arrayValue ?? []
    }

    static func codeActions(_ server: LanguageServer, _ range: JSONValue, only: [String]) async -> [JSONValue] {
        let replies = await server.handle([
            "jsonrpc": "2.0", "id": 7, "method": "textDocument/codeAction",
            "params": [
                "textDocument": ["uri": .string(uri)], "range": range,
                "context": ["diagnostics": [], "only": .array(only.map(JSONValue.string))],
            ],
        ])
        return replies.first?["result"]?.arrayValue ?? []
    }

    /// The text quoted after "did you mean" (`'search'`, `the setting 'timing'`).
    static func guess(in message: String) -> String? {
        guard let mark = message.range(of: "did you mean ") else { return nil }
        let rest = message[mark.upperBound...]
        guard let open = rest.firstIndex(of: "'") else { return nil }
        let after = rest[rest.index(after: open)...]
        return after.firstIndex(of: "'").map { String(after[..<$0]) }
    }

    /// `text` (ASCII: a character is a byte) with `edit` applied; nil when its range is not in it.
    static func applying(_ edit: JSONValue, to text: String) -> (text: String, start: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func offset(_ position: JSONValue?) -> Int? {
            guard case .number(let line)? = position?["line"], case .number(let character)? = position?["character"],
                Int(line) < lines.count
            else { return nil }
            return lines.prefix(Int(line)).reduce(0) { $0 + $1.utf8.count + 1 } + Int(character)
        }
        guard let start = offset(edit["range"]?["start"]), let end = offset(edit["range"]?["end"]),
            let replacement = edit["newText"]?.stringValue, start <= end, end <= text.utf8.count
        else { return nil }
        let bytes = Array(text.utf8)
        let fixed = bytes[..<start] + Array(replacement.utf8) + bytes[end...]
        return (String(decoding: fixed, as: UTF8.self), start)
    }

    @Test func everyDiagnosticOfTheCheckCarriesTheRuleBtsCheckReportsItWith() async throws {
        let server = await Self.started(relatedInformation: true)
        let corpus = Self.repository.appendingPathComponent("Fuzz/language/corpus")
        let seeds = try FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "bts" }.sorted { $0.path < $1.path }
        #expect(seeds.count >= 10, "the fuzzer's seed scripts: \(seeds)")
        let scripts =
            try [Self.mistakes] + RuleCorpus.misspelt.map(\.script)
            + seeds.map { try String(contentsOf: $0, encoding: .utf8) }
        var published = 0
        for (version, script) in scripts.enumerated() {
            let items = await Self.published(server, script, version: version + 1)
            let source = SourceFile(name: "codes.bts", text: script)
            let findings = CheckFinding.findings(ScriptChecker().diagnostics(of: script, name: "codes.bts"), in: source)
            // The same diagnostics as `bts check --format json` reports, each with its rule as the code.
            #expect(items.count == findings.count, "\(script)")
            for (item, finding) in zip(items, findings) {
                #expect(item["code"] == finding.rule.map(JSONValue.string), "\(item)")
                #expect(item["code"]?.stringValue.flatMap(Diagnostic.Rule.init(rawValue:)) != nil, "\(item)")
                #expect(item["source"] == "bts")
                #expect(item["range"]?["start"]?["line"] == .number(Double((finding.line ?? 0) - 1)), "\(item)")
            }
            #expect(items.allSatisfy { $0["code"]?.stringValue?.isEmpty == false }, "\(items)")
            published += items.count
        }
        // The mistakes alone make more than 25 diagnostics, every one with its rule.
        #expect(published > 25 + RuleCorpus.misspelt.count)
        let unknown = Diagnostic.error("x", rule: .unknownCommand, at: SourceRange(offset: 0, length: 0))
        #expect(CheckFinding.rule(of: unknown) == "unknown-command")
        #expect(CheckFinding.code(of: unknown) == "USAGE")
    }

    @Test func eachRuleIsTheCodeOfADiagnosticOfItsScript() async throws {
        let server = await Self.started(relatedInformation: true)
        #expect(RuleCorpus.scripts.count + RuleCorpus.notFromTheCheck.count == Diagnostic.Rule.allCases.count)
        for (version, (rule, script)) in RuleCorpus.scripts.sorted(by: { $0.key < $1.key }).enumerated() {
            let codes = await Self.published(server, script, version: version + 1).map { $0["code"]?.stringValue }
            #expect(codes.contains(rule), "\(rule): \(codes)")
        }
    }

    @Test func theWireFormOfADiagnosticHasItsCodeAndRelatedPlaces() async throws {
        let server = await Self.started(relatedInformation: true)
        let items = await Self.published(server, "search title dune --limit 1 --limit 2\n")
        #expect(
            items.map(\.compactJSON) == [
                #"{"code":"duplicate-option","message":"option '--limit' given more than once","range":"#
                    + #"{"end":{"character":35,"line":0},"start":{"character":28,"line":0}},"#
                    + #""relatedInformation":[{"location":{"range":{"end":{"character":25,"line":0},"#
                    + #""start":{"character":18,"line":0}},"uri":"file:///tmp/codes.bts"},"message":"first given here"}],"#
                    + #""severity":1,"source":"bts"}"#
            ]
        )
    }

    @Test func notesAboutOtherPlacesAreRelatedInformationOrLinesOfTheMessage() async throws {
        let script = "search title dune > out.json | sort\necho ${_.items[0}\nserch dune\n"
        let shown = await Self.published(await Self.started(relatedInformation: true), script)
        #expect(shown.count == 3, "\(shown)")
        // The redirection: a place; the hint stays under the message.
        #expect(
            shown.first?["message"]?.stringValue
                == "a command cannot both write a file and pipe its output\n"
                + "write 'CMD | pipeline > FILE' inside the pipeline instead"
        )
        let redirection = shown.first?["relatedInformation"]?.arrayValue ?? []
        #expect(redirection.map { $0["message"] } == ["the redirection is here"])
        #expect(redirection.first?["location"]?["range"]?["start"] == ["line": 0, "character": 18])
        #expect(redirection.first?["location"]?["uri"] == .string(Self.uri))
        let bracket = shown.dropFirst().first
        #expect(bracket?["relatedInformation"]?.arrayValue?.first?["message"] == "to match this '['", "\(shown)")
        #expect(bracket?["message"]?.stringValue?.contains("match this") == false)
        // A note without a place stays in the message, and there are no related places.
        #expect(shown.last?["relatedInformation"] == nil)
        #expect(shown.last?["message"]?.stringValue?.hasSuffix("\ntype 'help' to list the commands") == true)

        // A client that does not show related places reads them in the message, with line and column.
        let folded = await Self.published(await Self.started(relatedInformation: false), script)
        #expect(folded.allSatisfy { $0["relatedInformation"] == nil }, "\(folded)")
        #expect(
            folded.first?["message"]?.stringValue
                == "a command cannot both write a file and pipe its output\nthe redirection is here (line 1, column 19)\n"
                + "write 'CMD | pipeline > FILE' inside the pipeline instead"
        )
        #expect(
            folded.dropFirst().first?["message"]?.stringValue?.hasSuffix("\nto match this '[' (line 2, column 15)")
                == true,
            "\(folded)"
        )
    }

    @Test func everyDidYouMeanHasAQuickFixThatWritesTheGuess() async throws {
        let server = await Self.started(relatedInformation: true)
        for (version, (script, expected)) in RuleCorpus.misspelt.enumerated() {
            let items = await Self.published(server, script, version: version + 1)
            let suggesting = items.filter { $0["message"]?.stringValue.flatMap(Self.guess) != nil }
            try #require(suggesting.count == 1, "one 'did you mean' in \(script): \(items)")
            let diagnostic = suggesting[0]
            #expect(diagnostic["message"]?.stringValue.flatMap(Self.guess) == expected, "\(diagnostic)")
            let actions = await Self.codeActions(server, diagnostic["range"] ?? .null, only: ["quickfix"])
            try #require(actions.count == 1, "a quick fix for \(script): \(actions)")
            #expect(actions[0]["diagnostics"]?.arrayValue?.first?["code"] == diagnostic["code"])
            #expect(diagnostic["code"]?.stringValue.flatMap(Diagnostic.Rule.init(rawValue:)) != nil, "\(diagnostic)")
            let edit = try #require(actions[0]["edit"]?["changes"]?[Self.uri]?.arrayValue?.first)
            let (fixed, start) = try #require(Self.applying(edit, to: script), "\(edit)")
            #expect(Array(fixed.utf8).dropFirst(start).starts(with: expected.utf8), "\(script) → \(fixed)")
            // The fix takes the mistake away.
            let again = await Self.published(server, fixed, version: 100 + version)
            #expect(!again.contains { $0["message"] == diagnostic["message"] }, "\(fixed): \(again)")
        }
    }

    @Test func formattingIsTheSourceActionAndQuickFixesAreNot() async throws {
        let server = await Self.started(relatedInformation: true)
        _ = await Self.published(server, "serch dune\nfor x in a b\necho   $x\nend\n")
        let everything: JSONValue = ["start": ["line": 0, "character": 0], "end": ["line": 3, "character": 3]]
        func kinds(_ only: [String]) async -> [String] {
            await Self.codeActions(server, everything, only: only).compactMap { $0["kind"]?.stringValue }
        }
        #expect(await kinds(["source"]) == ["source.fixAll"])
        #expect(await kinds(["source.fixAll"]) == ["source.fixAll"])
        #expect(await kinds(["quickfix"]) == ["quickfix"])
        #expect(await kinds(["quickfix", "source"]) == ["quickfix", "source.fixAll"])
        #expect(await kinds(["source.organizeImports"]) == [])
        #expect(await kinds(["refactor"]) == [])
    }

    /// `name first-line last-line`, nested by two spaces, of each symbol; and whether each child lies
    /// within its parent (LSP's rule for a symbol's `children`).
    static func outline(_ symbols: [JSONValue], depth: Int = 0, within parent: (Int, Int)? = nil) -> [String] {
        symbols.flatMap { symbol -> [String] in
            let first = Int(symbol["range"]?["start"]?["line"]?.interpolationText ?? "") ?? -1
            let last = Int(symbol["range"]?["end"]?["line"]?.interpolationText ?? "") ?? -1
            let inside = parent.map { $0.0 <= first && last <= $0.1 } ?? true
            let line =
                String(repeating: " ", count: depth * 2) + (symbol["name"]?.stringValue ?? "?") + " \(first)-\(last)"
                + (inside ? "" : " OUTSIDE")
            return [line] + outline(symbol["children"]?.arrayValue ?? [], depth: depth + 1, within: (first, last))
        }
    }

    static func symbols(_ server: LanguageServer) async -> [JSONValue] {
        let replies = await server.handle([
            "jsonrpc": "2.0", "id": 3, "method": "textDocument/documentSymbol",
            "params": ["textDocument": ["uri": .string(uri)]],
        ])
        return replies.first?["result"]?.arrayValue ?? []
    }

    @Test func aDocumentWithBlocksLeftOpenListsWhatParses() async throws {
        let server = await Self.started(relatedInformation: true)
        _ = await Self.published(
            server,
            "alias top search title $1\nset n 1\nfor x in a b\n  set y 2\n  if $x == a\n    echo hi\n    set z 3\n"
        )
        #expect(
            Self.outline(await Self.symbols(server)) == [
                "top 0-0", "$n 1-1", "for x 2-6", "  $y 3-3", "  if $x == a 4-6", "    $z 6-6",
            ]
        )
    }

    @Test func aQuoteLeftOpenHidesNothingAfterItsLine() async throws {
        let server = await Self.started(relatedInformation: true)
        let script =
            "alias top search title $1\necho \"oops\nset w 3\nfor x in a b\n  echo ${x\n  set v 1\nend\nalias two echo 2\n"
        let items = await Self.published(server, script)
        #expect(
            items.first?["message"]?.stringValue?.hasPrefix("unterminated double-quoted string") == true,
            "\(items)"
        )
        #expect(
            Self.outline(await Self.symbols(server)) == ["top 0-0", "$w 2-2", "for x 3-6", "  $v 5-5", "two 7-7"]
        )
    }
}
