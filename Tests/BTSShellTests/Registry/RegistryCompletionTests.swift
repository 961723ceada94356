import BTSLanguage
import BTSShell
import Testing

@Suite struct RegistryCompletionTests {
    let registry = CommandRegistry.standard

    func slot(_ line: String) -> CompletionSlot { registry.completionSlot(forLine: line) }

    @Test func commandNames() {
        #expect(slot("").kind == .command)
        #expect(slot("").candidates.count == registry.commands.count + Parser.keywords.count)
        #expect(slot("se").candidates == ["search", "semantic", "set"])
        #expect(slot("se").range == SourceRange(offset: 0, length: 2))
        #expect(slot("jobs; sea").candidates == ["search"])
        #expect(slot("jobs; sea").range == SourceRange(offset: 6, length: 3))
        #expect(slot("nope x").kind == CompletionKind.none)
    }

    @Test func subcommandsOptionsAndValues() {
        #expect(slot("search ").kind == .subcommand)
        #expect(slot("search t").candidates == ["title"])
        #expect(slot("search title dune --l").candidates == ["--limit"])
        #expect(
            slot("search title dune -").candidates == [
                "--limit", "--offset", "--page", "--all", "--columns", "--output", "--help", "--no-cache",
            ]
        )
        #expect(
            slot("search title dune --limit 5 -").candidates == [
                "--offset", "--page", "--all", "--columns", "--output", "--help", "--no-cache",
            ]
        )
        #expect(slot("search dune --output ").kind == .outputFormat)
        #expect(slot("search dune --output ").candidates == ["table", "json", "ndjson", "csv", "markdown"])
        #expect(slot("search dune -o n").candidates == ["ndjson"])
        #expect(slot("search dune --output=j").candidates == ["--output=json"])
        #expect(slot("enrich 978 --provider ").kind == .provider)
        #expect(slot("enrich 978 --provider o").candidates == ["openlibrary"])
        #expect(slot("enrich --from ").kind == .filePath(extensions: ["txt", "csv"]))
        #expect(slot("search isbn ").kind == .isbn)
    }

    @Test func positionalKinds() {
        #expect(slot("import ").kind == .filePath(extensions: ["csv"]))
        #expect(slot("import --watch lib").kind == .filePath(extensions: ["csv"]))
        #expect(slot("import --watch lib").partial == "lib")
        #expect(slot("source ").kind == .filePath(extensions: ["bts"]))
        #expect(slot("watch ").kind == .jobID)
        #expect(slot("status j").kind == .jobID)
        #expect(slot("similar ").kind == .isbn)
        #expect(slot("search dune ").kind == .title)
        #expect(slot("connect ").kind == .profile)
        #expect(slot("echo ${_.re").kind == .variable)
        #expect(slot("echo $").kind == .variable)
        #expect(slot("status a ").kind == CompletionKind.none)
        #expect(slot("search title \"the hob").partial == "the hob")
    }

    @Test func settingsAndHelp() {
        #expect(slot("set ").kind == .setting)
        #expect(slot("set o").candidates == ["output", "onerror", "offline"])
        #expect(slot("set color ").candidates == ["on", "off", "auto"])
        #expect(slot("set myvar ").kind == CompletionKind.none)
        #expect(slot("help ").kind == .command)
        #expect(slot("help li").candidates == ["library", "limits"])
        #expect(slot("help search ").candidates == ["isbn", "title", "author"])
        #expect(slot("timing ").candidates == ["on", "off"])
    }

    @Test func cursorInTheMiddle() {
        let line = "search title dune --li 5"
        let slot = registry.completionSlot(forLine: line, cursorOffset: 22)
        #expect(slot.candidates == ["--limit"])
        #expect(slot.range == SourceRange(offset: 18, length: 4))
    }

    @Test func scriptCheckCollectsEveryCommand() {
        let result = Parser.parse("search dune --limt 5\njobs\nsimilar\nexit 999")
        #expect(
            registry.check(result.script).map(\.message) == [
                "unknown option '--limt' for 'search' (did you mean '--limit'?)",
                "missing argument for 'similar': give BOOK, --library or --shelf",
                "value 999 for CODE is out of range: expected an integer 0–255",
            ]
        )
    }
}
