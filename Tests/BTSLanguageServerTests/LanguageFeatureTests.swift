import BTSLanguage
import BTSShell
import Testing

@testable import BTSLanguageServer

/// The language features as pure functions of a document's text, without a server.
struct LanguageFeatureTests {
    let registry = ScriptChecker().registry

    @Test func symbolsListAliasesBlocksAndTheVariablesInThem() {
        let index = LineIndex("alias hi echo hi\nfor x in a b\n  set y 1\nend\n")
        let symbols = DocumentSymbols.of(index)
        #expect(symbols.map(\.name) == ["hi", "for x"])
        #expect(symbols.map(\.kind) == [12, 3])
        #expect(symbols.last?.children?.map(\.name) == ["$y"])
        #expect(symbols.last?.range.end.line == 3)
    }

    @Test func aRenameEditsEveryReadAndRefusesANameThatIsNoVariables() throws {
        let index = LineIndex("set n 1\necho $n\n")
        let bindings = Navigation.bindings(of: index, registry: registry)
        let at = index.offset(line: 1, character: 6)
        let renamed = try Navigation.rename(bindings, at: at, to: "m", in: index, uri: "u", registry: registry).get()
        let edits = try #require(renamed?.changes["u"])
        #expect(edits.map(\.newText) == ["m", "m"])
        #expect(Set(edits.map(\.range.start.line)) == [0, 1])
        guard
            case .failure(let failure) = Navigation.rename(
                bindings,
                at: at,
                to: "1x",
                in: index,
                uri: "u",
                registry: registry
            )
        else {
            Issue.record("'1x' was accepted as a variable's name")
            return
        }
        #expect(failure.code == .requestFailed)
        #expect(failure.message.contains("is not a variable name"))
    }

    @Test func codeActionsOfferOnlyTheKindsAskedAndFormatOnlyWhenAsked() {
        let index = LineIndex("echo   a\n")
        let edit = LanguageServerResults.TextEdit(range: index.range(0, 9), newText: "echo a\n")
        var formattingAsked = 0
        let all = CodeActions.actions(.init(range: .zero, only: nil), in: index, uri: "u", fixes: nil) {
            formattingAsked += 1
            return [edit]
        }
        #expect(all.map(\.kind) == [CodeActions.formatKind])
        #expect(formattingAsked == 1)
        let fixesOnly = CodeActions.actions(.init(range: .zero, only: ["quickfix"]), in: index, uri: "u", fixes: []) {
            formattingAsked += 1
            return [edit]
        }
        #expect(fixesOnly.isEmpty)
        #expect(formattingAsked == 1, "formatting is not asked for when its kind is not wanted")
    }

    @Test func aFixItsTitleSaysWhatItDoes() {
        let index = LineIndex("serch dune\n")
        let replace = Diagnostic.FixIt(range: SourceRange(offset: 0, length: 5), replacement: "search")
        #expect(CodeActions.title(of: replace, in: index) == "Replace 'serch' with 'search'")
        let delete = Diagnostic.FixIt(range: SourceRange(offset: 5, length: 5), replacement: "")
        #expect(CodeActions.title(of: delete, in: index) == "Delete ' dune'")
        let insert = Diagnostic.FixIt(range: SourceRange(offset: 0, length: 0), replacement: "x")
        #expect(CodeActions.title(of: insert, in: index) == "Insert 'x'")
    }

    @Test func wholeFormattingIsOneEditOrNone() throws {
        let index = LineIndex("echo   a\n")
        let formatted = try #require(DocumentFormatting.formatted(index, maxBytes: 100))
        #expect(DocumentFormatting.whole(index, formatted: formatted).map(\.newText) == ["echo a\n"])
        #expect(DocumentFormatting.formatted(index, maxBytes: 3) == nil)
        #expect(DocumentFormatting.whole(LineIndex(formatted), formatted: formatted).isEmpty)
    }
}
