import BTSLanguageServer
import Foundation
import TestSupport
import Testing

/// VS Code's indentation rules in editors/vscode/language-configuration.json: which lines indent
/// the next and which go one level out, checked with ICU's regular expressions and, when Node is
/// installed, with JavaScript's (the engine VS Code runs them in).
@Suite("editor files: VS Code indentation")
struct EditorFilesIndentationTests {
    static let node = URL(fileURLWithPath: "/usr/bin/node")

    /// Lines and whether each indents the line after it.
    static let increase: [(String, Bool)] = [
        ("for x in a b", true), ("  if $x == 1", true), ("while $n < 3", true), ("else", true),
        ("  elif not exists $x", true), ("for", true), ("if $x == 1; echo one; end", false),
        ("format x", false), ("end", false), ("echo for", false), ("'if' x", false), ("ifx", false),
        ("search title dune", false), ("while true;end", false), ("if $x == 1 # end", true),
    ]

    /// Lines and whether each goes one level out.
    static let decrease: [(String, Bool)] = [
        ("end", true), ("  end # done", true), ("else", true), ("  elif $x", true), ("end;", true),
        ("ending", false), ("echo end", false), ("endless x", false), ("for x in a b", false),
    ]

    static func configuration() throws -> [String: Any] {
        let url = EditorFilesTests.editors.appendingPathComponent("vscode/language-configuration.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static func patterns() throws -> (increase: String, decrease: String, onEnter: String) {
        let configuration = try configuration()
        let rules = try #require(configuration["indentationRules"] as? [String: String])
        let onEnter = try #require((configuration["onEnterRules"] as? [[String: Any]])?.first)
        #expect((onEnter["action"] as? [String: String])?["indent"] == "indent")
        return (
            try #require(rules["increaseIndentPattern"]), try #require(rules["decreaseIndentPattern"]),
            try #require(onEnter["beforeText"] as? String)
        )
    }

    @Test func theRulesIndentAfterABlockKeywordAndOutdentItsDividersAndEnd() throws {
        let (increase, decrease, onEnter) = try Self.patterns()
        #expect(onEnter == increase)
        func matches(_ pattern: String, _ line: String) throws -> Bool {
            let regex = try NSRegularExpression(pattern: pattern)
            return regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
        }
        for (line, expected) in Self.increase {
            #expect(try matches(increase, line) == expected, "increase: \(line)")
        }
        for (line, expected) in Self.decrease {
            #expect(try matches(decrease, line) == expected, "decrease: \(line)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: node.path), "Node (/usr/bin/node) is missing"))
    func javaScriptReadsTheRulesTheSameWay() async throws {
        let (increase, decrease, _) = try Self.patterns()
        // Each pattern compiled with `new RegExp` (as VS Code does) and tried on each line: 1 or 0.
        let program = """
            const [increase, decrease, ...rest] = JSON.parse(process.argv[1]);
            const lines = JSON.parse(process.argv[2]);
            const up = new RegExp(increase), down = new RegExp(decrease);
            console.log(lines.map((l) => (up.test(l) ? "1" : "0") + (down.test(l) ? "1" : "0")).join(" "));
            """
        let lines = (Self.increase + Self.decrease).map(\.0)
        func json(_ value: Any) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
        }
        let outcome = try await ChildProcess.run(
            Self.node,
            ["-e", program, try json([increase, decrease]), try json(lines)],
            environment: ["PATH": "/usr/bin:/bin"],
            timeout: .seconds(60)
        )
        #expect(outcome.status == 0, "\(outcome)")
        let answers = outcome.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        try #require(answers.count == lines.count, "\(outcome)")
        for (offset, (line, expected)) in Self.increase.enumerated() {
            #expect(answers[offset].first == (expected ? "1" : "0"), "increase: \(line)")
        }
        for (offset, (line, expected)) in Self.decrease.enumerated() {
            #expect(answers[Self.increase.count + offset].last == (expected ? "1" : "0"), "decrease: \(line)")
        }
    }
}
