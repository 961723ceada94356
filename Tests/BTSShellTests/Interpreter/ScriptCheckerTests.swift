import BTSLanguage
import BTSShell
import Foundation
import Testing

/// The whole-script check as a value: the registry and the aliases known before the script, and
/// nothing else; a session's check is the same check with its own aliases.
@Suite("script checker")
struct ScriptCheckerTests {
    static let script = """
        alias top search title $1 --limit 3
        top dune
        mine dune
        serch dune
        search title dune --limt 5
        if $n==1; echo x; end
        """

    static func lines(_ diagnostics: [Diagnostic], in text: String) -> [String] {
        let source = SourceFile(name: "t.bts", text: text)
        return diagnostics.map { "\(source.location(of: $0.range.offset).line): \($0.message)" }
    }

    @Test func aScriptsOwnAliasesAreKnownAndOthersAreNot() {
        let found = Self.lines(ScriptChecker().diagnostics(of: Self.script, name: "t.bts"), in: Self.script)
        #expect(found.count == 4, "\(found)")
        #expect(found.contains { $0.hasPrefix("3: ") && $0.contains("'mine'") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("4: ") && $0.contains("'serch'") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("5: ") && $0.contains("--limt") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("6: ") && $0.contains("'$n==1'") }, "\(found)")
        #expect(!found.contains { $0.hasPrefix("2: ") }, "top is the script's alias")
    }

    @Test func aliasesKnownBeforeTheScriptAreCommands() {
        let known = ScriptChecker(aliases: ["mine"]).diagnostics(of: Self.script, name: "t.bts")
        #expect(!Self.lines(known, in: Self.script).contains { $0.hasPrefix("3: ") })
        #expect(known.count == 3)
    }

    @Test func aSessionChecksWithItsAliases() async throws {
        try await withShell { harness in
            let before = await harness.shell.diagnostics(of: Self.script, name: "t.bts")
            #expect(before == ScriptChecker().diagnostics(of: Self.script, name: "t.bts"))
            #expect(await harness.typed("alias mine search author $1") == 0, "\(harness.err)")
            let after = await harness.shell.diagnostics(of: Self.script, name: "t.bts")
            #expect(after == ScriptChecker(aliases: ["mine"]).diagnostics(of: Self.script, name: "t.bts"))
            #expect(after.count == before.count - 1)
        }
    }
}
