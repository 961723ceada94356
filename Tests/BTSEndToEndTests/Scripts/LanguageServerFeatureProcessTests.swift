import Foundation
import TestSupport
import Testing

/// The editor features of `bts lsp` through the real binary over pipes, each asked once of one
/// script: definition, references, prepareRename and rename, a variable's hover, semantic tokens and
/// their delta after a change, folding ranges and range formatting.
@Suite(
    "bts lsp's editor features over pipes",
    .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct LanguageServerFeatureProcessTests {
    typealias Session = LanguageServerProcessTests.Session

    /// The script, as JSON string text: `who` is set on line 0 and read on lines 1 and 3; the
    /// loop's body (line 3) is not indented, as `bts fmt` would indent it.
    static let script = #"set who \"Herbert\"\nsearch author $who\nfor b in ${_.results}\necho ${b.title} $who\nend\n"#

    static func request(_ id: Int, _ method: String, _ params: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":{"textDocument":{"uri":"file:///t/a.bts"}\#(params.isEmpty ? "" : ",")\#(params)}}"#
    }

    static func at(_ line: Int, _ character: Int) -> String {
        #""position":{"line":\#(line),"character":\#(character)}"#
    }

    /// The result of the answer to request `id`.
    static func result(_ messages: [[String: Any]], _ id: Int) -> Any? {
        messages.first { $0["id"] as? Int == id }?["result"]
    }

    /// Each location's or edit's start as `line:character`.
    static func starts(_ items: Any?) -> [String] {
        (items as? [[String: Any]] ?? []).compactMap { item in
            let start = (item["range"] as? [String: Any])?["start"] as? [String: Any]
            guard let line = start?["line"] as? Int, let character = start?["character"] as? Int else { return nil }
            return "\(line):\(character)"
        }
    }

    @Test func everyEditorFeatureAnswersOverPipes() async throws {
        guard let binary = BTSExecutable.url else { return }
        let session = try Session(binary)
        session.send(
            Session.start[0],
            Session.start[1],
            Session.didOpen(Self.script),
            Self.request(10, "textDocument/definition", Self.at(3, 17)),
            Self.request(11, "textDocument/references", Self.at(0, 5) + #","context":{"includeDeclaration":true}"#),
            Self.request(12, "textDocument/prepareRename", Self.at(0, 5)),
            Self.request(13, "textDocument/rename", Self.at(0, 5) + #","newName":"author""#),
            Self.request(14, "textDocument/hover", Self.at(3, 17)),
            Self.request(15, "textDocument/semanticTokens/full", ""),
            Self.request(16, "textDocument/foldingRange", ""),
            Self.request(
                17,
                "textDocument/rangeFormatting",
                #""range":{"start":{"line":3,"character":0},"end":{"line":3,"character":20}},"options":{"tabSize":4,"insertSpaces":true}"#
            )
        )
        try await session.waitFor("the range formatting") { $0["id"] as? Int == 17 }
        let first = session.messages
        let tokens = Self.result(first, 15) as? [String: Any]
        let resultID = try #require(tokens?["resultId"] as? String, "\(String(describing: tokens))")
        // `$who` on line 1 becomes `dune`: a variable's token becomes a plain word's.
        session.send(
            Session.didChange(version: 2, [(1, 14, 18, "dune")]),
            Self.request(18, "textDocument/semanticTokens/full/delta", #""previousResultId":"\#(resultID)""#)
        )
        try await session.waitFor("the delta") { $0["id"] as? Int == 18 }
        let messages = session.messages
        #expect(await session.end() == 0)

        #expect(Self.starts(Self.result(messages, 10)) == ["0:4"], "the definition is `set who`")
        #expect(Self.starts(Self.result(messages, 11)) == ["0:4", "1:15", "3:17"], "the set and both reads")
        #expect((Self.result(messages, 12) as? [String: Any])?["placeholder"] as? String == "who")
        let renamed = ((Self.result(messages, 13) as? [String: Any])?["changes"] as? [String: Any])?["file:///t/a.bts"]
        #expect(
            Self.starts(renamed) == ["0:4", "1:15", "3:17"],
            "every use, after its `$`: \(String(describing: renamed))"
        )
        #expect((renamed as? [[String: Any]])?.allSatisfy { $0["newText"] as? String == "author" } == true)
        let hover = ((Self.result(messages, 14) as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String
        #expect(hover?.contains("line 1: set to 'Herbert'") == true, "\(String(describing: hover))")
        let data = tokens?["data"] as? [Int] ?? []
        #expect(data.count > 20 && data.count % 5 == 0, "\(data)")
        let folds = Self.result(messages, 16) as? [[String: Any]] ?? []
        #expect(folds.map { "\($0["startLine"] ?? "") -\($0["endLine"] ?? "")" } == ["2 -3"], "\(folds)")
        let formatted = Self.result(messages, 17) as? [[String: Any]] ?? []
        #expect(formatted.map { $0["newText"] as? String } == ["  echo ${b.title} $who\n"], "\(formatted)")
        #expect(Self.starts(formatted) == ["3:0"])
        let delta = Self.result(messages, 18) as? [String: Any]
        let edits = delta?["edits"] as? [[String: Any]] ?? []
        #expect(edits.count == 1 && delta?["resultId"] as? String != resultID, "\(String(describing: delta))")
    }
}
