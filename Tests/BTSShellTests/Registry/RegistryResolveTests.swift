import BTSLanguage
import BTSShell
import BooksTrackClient
import BooksTrackContract
import Testing

@Suite struct RegistryResolveTests {
    // MARK: Every command resolves

    @Test func searchForms() throws {
        let plain = try #require(registryResolved("search dune messiah"))
        #expect(plain.path == ["search"])
        #expect(plain.strings("QUERY") == ["dune", "messiah"])
        #expect(plain.int("limit") == 20)
        #expect(plain.spec.budgetClass == .known(.search))

        let title = try #require(registryResolved("search title the hobbit -n 5"))
        #expect(title.path == ["search", "title"])
        #expect(title.displayName == "search title")
        #expect(title.strings("QUERY") == ["the", "hobbit"])
        #expect(title.int("limit") == 5)

        let isbn = try #require(registryResolved("search isbn 978-0-441-17271-9"))
        #expect(isbn.path == ["search", "isbn"])
        #expect(isbn.string("ISBN") == "978-0-441-17271-9")

        let author = try #require(registryResolved("search author frank herbert --limit=100"))
        #expect(author.path == ["search", "author"])
        #expect(author.int("limit") == 100)

        let advanced = try #require(registryResolved("search --title dune --author herbert"))
        #expect(advanced.optionString("title") == "dune")
        #expect(advanced.optionString("author") == "herbert")
        #expect(advanced.values("QUERY").isEmpty)

        let quoted = try #require(registryResolved("search 'title' of the book"))
        #expect(quoted.path == ["search"])
        #expect(quoted.strings("QUERY") == ["title", "of", "the", "book"])
    }

    @Test func missionCommands() throws {
        let similar = try #require(registryResolved("similar 9780441172719 --limit 5"))
        #expect(similar.spec.gate?.feature == .similarBooks)
        #expect(similar.int("limit") == 5)
        #expect(registryResolved("similar 9780441172719")?.int("limit") == 10)

        let semantic = try #require(registryResolved("semantic desert planet politics -n 3"))
        #expect(semantic.spec.gate?.feature == .semanticSearch)
        #expect(semantic.spec.budgetClass == .known(.semantic))
        #expect(semantic.strings("QUERY") == ["desert", "planet", "politics"])

        let single = try #require(registryResolved("enrich 9780441172719"))
        #expect(single.optionString("provider") == "auto")
        #expect(!single.flag("watch"))
        let batch = try #require(registryResolved("enrich 9780441172719 9780553293357 --provider OpenLibrary -w"))
        #expect(batch.strings("ISBN").count == 2)
        #expect(batch.optionString("provider") == "openlibrary")
        #expect(batch.flag("watch"))
        let file = try #require(registryResolved("enrich --from isbns.txt --watch"))
        #expect(file.option("from") == .path("isbns.txt"))

        let importing = try #require(registryResolved("import library.csv --watch"))
        #expect(importing.values("FILE").first?.value == .path("library.csv"))
        #expect(importing.spec.budgetClass == .known(.import))

        #expect(registryResolved("watch")?.values("JOB").isEmpty == true)
        #expect(registryResolved("watch last")?.string("JOB") == "last")
        let recommend = try #require(registryResolved("recommend --limit 3"))
        #expect(recommend.spec.gate?.feature == .weeklyRecommendations)
        #expect(recommend.int("limit") == 3)
    }

    @Test func metaCommands() throws {
        #expect(registryResolved("help")?.values("COMMAND").isEmpty == true)
        #expect(registryResolved("help search title")?.strings("COMMAND") == ["search", "title"])
        #expect(registryResolved("? similar")?.spec.name == "help")
        #expect(registryResolved("caps --refresh")?.flag("refresh") == true)
        #expect(registryResolved("limits")?.spec.name == "limits")
        #expect(registryResolved("jobs")?.spec.name == "jobs")
        for name in ["status", "results", "cancel"] {
            let job = try #require(registryResolved("\(name) abc-123"))
            #expect(job.string("JOB") == "abc-123")
            #expect(job.spec.budgetClass == .known(.jobs))
        }
        let connect = try #require(registryResolved("connect http://user:secret@localhost:8787"))
        #expect(connect.spec.isSensitive)
        #expect(registryResolved("set")?.values("NAME").isEmpty == true)
        #expect(registryResolved("set output json")?.strings("VALUE") == ["json"])
        #expect(registryResolved("set onerror continue") != nil)
        #expect(registryResolved("set book 9780441172719")?.string("NAME") == "book")
        #expect(registryResolved("echo --limit 5 -n 'x y'")?.strings("WORD") == ["--limit", "5", "-n", "x y"])
        #expect(registryResolved("echo")?.values("WORD").isEmpty == true)
        #expect(registryResolved("sleep 500ms")?.values("DURATION").first?.value == .duration(.milliseconds(500)))
        #expect(registryResolved("sleep 1.5")?.values("DURATION").first?.value == .duration(.milliseconds(1500)))
        #expect(registryResolved("sleep 2m")?.values("DURATION").first?.value == .duration(.seconds(120)))
        #expect(registryResolved("source setup.bts")?.values("FILE").first?.value == .path("setup.bts"))
        #expect(registryResolved(". setup.bts")?.spec.name == "source")
        let expect = try #require(registryResolved("expect ${_.totalCount} > 0"))
        #expect(expect.values("EXPR").count == 3)
        #expect(expect.hasDeferredValues)
        #expect(registryResolved("history")?.spec.name == "history")
        #expect(registryResolved("timing")?.values("STATE").isEmpty == true)
        #expect(registryResolved("timing ON")?.values("STATE").first?.value == .string("on"))
        #expect(registryResolved("exit")?.values("CODE").isEmpty == true)
        #expect(registryResolved("exit 3")?.values("CODE").first?.value == .int(3))
        #expect(registryResolved("quit 0")?.spec.name == "exit")
        #expect(registryResolved("jobs --output json")?.optionString("output") == "json")
        #expect(
            registryResolved("search dune -o csv -- --not-an-option")?.strings("QUERY") == ["dune", "--not-an-option"]
        )
    }

    // MARK: Errors, with exact messages

    @Test func unknownCommands() {
        #expect(registryErrors("serch dune") == ["unknown command 'serch' (did you mean 'search'?)"])
        #expect(registryErrors("frobnicate") == ["unknown command 'frobnicate'"])
        #expect(registryErrors("semantik x") == ["unknown command 'semantik' (did you mean 'semantic'?)"])
        guard case .failure(let diagnostics)? = registryResolve("serch dune") else {
            Issue.record("expected failure")
            return
        }
        #expect(diagnostics[0].range == SourceRange(offset: 0, length: 5))
        #expect(
            diagnostics[0].fixIt == Diagnostic.FixIt(range: SourceRange(offset: 0, length: 5), replacement: "search")
        )
        #expect(diagnostics[0].notes == [Diagnostic.Note("type 'help' to list the commands")])
    }

    @Test func unknownOptions() {
        #expect(
            registryErrors("search title dune --limt 5") == [
                "unknown option '--limt' for 'search' (did you mean '--limit'?)"
            ]
        )
        #expect(registryErrors("search dune --colour on") == ["unknown option '--colour' for 'search'"])
        #expect(registryErrors("search dune -x") == ["unknown option '-x' for 'search'"])
        #expect(
            registryErrors("search dune -limit 5") == ["unknown option '-limit' for 'search' (did you mean '--limit'?)"]
        )
        #expect(
            registryErrors("import a.csv --wach") == ["unknown option '--wach' for 'import' (did you mean '--watch'?)"]
        )
        #expect(
            registryErrors("search dune --outptu json") == [
                "unknown option '--outptu' for 'search' (did you mean '--output'?)"
            ]
        )
    }

    @Test func goldenUnknownOptionRendering() {
        #expect(
            registryRendered("jobs\nlimits\nsearch title dune --limt 5\n") == """
                script.bts:3:19: error: unknown option '--limt' for 'search' (did you mean '--limit'?)
                  3 | search title dune --limt 5
                    |                   ^~~~~~

                """
        )
    }

    @Test func missingAndExtraArguments() {
        #expect(registryErrors("similar") == ["missing argument for 'similar': give BOOK, --library or --shelf"])
        #expect(registryErrors("semantic") == ["missing argument QUERY for 'semantic'"])
        #expect(registryErrors("search title") == ["missing argument QUERY for 'search title'"])
        #expect(registryErrors("connect") == ["missing argument TARGET for 'connect'"])
        #expect(registryErrors("expect") == ["missing argument EXPR for 'expect'"])
        #expect(registryErrors("import") == ["missing argument FILE for 'import'"])
        #expect(
            registryErrors("status a b c") == [
                "too many arguments for 'status': unexpected 'b' ('status' takes at most 1 argument)"
            ]
        )
        #expect(
            registryErrors("jobs extra") == [
                "too many arguments for 'jobs': unexpected 'extra' ('jobs' takes no arguments)"
            ]
        )
        #expect(registryErrors("search") == ["missing argument for 'search': give QUERY, --title or --author"])
        #expect(registryErrors("enrich --watch") == ["missing argument for 'enrich': give ISBN or --from"])
    }

    @Test func missingArgumentPointsAfterTheCommand() {
        #expect(
            registryRendered("similar  ") == """
                script.bts:1:8: error: missing argument for 'similar': give BOOK, --library or --shelf
                  1 | similar  
                    |        ^
                script.bts: note: usage: similar [BOOK...] [--limit N] [--library] [--shelf SHELF] [--columns NAME,…]

                """
        )
        #expect(
            registryRendered("status a b c") == """
                script.bts:1:10: error: too many arguments for 'status': unexpected 'b' ('status' takes at most 1 argument)
                  1 | status a b c
                    |          ^~~
                script.bts: note: usage: status JOB

                """
        )
    }

    @Test func badValues() {
        #expect(
            registryErrors("search title dune --limit abc") == [
                "invalid value 'abc' for '--limit': expected an integer 1–100"
            ]
        )
        #expect(
            registryErrors("search dune --limit 500") == [
                "value 500 for '--limit' is out of range: expected an integer 1–100"
            ]
        )
        #expect(
            registryErrors("search dune --limit 0") == [
                "value 0 for '--limit' is out of range: expected an integer 1–100"
            ]
        )
        #expect(
            registryErrors("similar 978 --limit 51") == [
                "value 51 for '--limit' is out of range: expected an integer 1–50"
            ]
        )
        #expect(
            registryErrors("similar 978 -n -1") == ["value -1 for '--limit' is out of range: expected an integer 1–50"]
        )
        #expect(
            registryErrors("enrich 978 --provider isbnd") == [
                "invalid value 'isbnd' for '--provider': expected one of auto, google_books, openlibrary, isbndb (did you mean 'isbndb'?)"
            ]
        )
        #expect(
            registryErrors("search dune --output xml") == [
                "invalid value 'xml' for '--output': expected one of table, json, ndjson, csv, markdown"
            ]
        )
        #expect(
            registryErrors("sleep soon") == [
                "invalid value 'soon' for DURATION: expected a duration such as 500ms, 2s, 1.5, 3m or 1h, at most 24h"
            ]
        )
        #expect(
            registryErrors("sleep -1s") == [
                "invalid value '-1s' for DURATION: expected a duration such as 500ms, 2s, 1.5, 3m or 1h, at most 24h"
            ]
        )
        #expect(registryErrors("exit 300") == ["value 300 for CODE is out of range: expected an integer 0–255"])
        #expect(registryErrors("exit x") == ["invalid value 'x' for CODE: expected an integer 0–255"])
        #expect(registryErrors("timing maybe") == ["invalid value 'maybe' for STATE: expected one of on, off"])
        #expect(registryErrors("search dune --limit") == ["missing value for '--limit' (expected an integer 1–100)"])
        #expect(
            registryErrors("search dune --limit --output json") == [
                "missing value for '--limit' (expected an integer 1–100)"
            ]
        )
        guard case .failure(let diagnostics)? = registryResolve("search dune --limit abc") else {
            Issue.record("expected failure")
            return
        }
        #expect(diagnostics[0].range == SourceRange(offset: 20, length: 3))
    }

    @Test func optionMisuse() {
        #expect(registryErrors("import a.csv --watch=yes") == ["option '--watch' does not take a value"])
        #expect(registryErrors("search dune --limit 5 -n 6") == ["option '--limit' given more than once"])
        #expect(registryErrors("enrich 978 --from f.txt") == ["--from cannot be combined with ISBN in 'enrich'"])
        #expect(registryErrors("search dune --title x") == ["--title cannot be combined with QUERY in 'search'"])
    }

    @Test func severalErrorsInOneCommand() {
        #expect(
            registryErrors("search dune --limt 5 --limit x -q") == [
                "unknown option '--limt' for 'search' (did you mean '--limit'?)",
                "invalid value 'x' for '--limit': expected an integer 1–100",
                "unknown option '-q' for 'search'",
            ]
        )
    }

    @Test func setValidation() {
        #expect(
            registryErrors("set output xml") == [
                "invalid value 'xml' for setting 'output': expected one of table, json, ndjson, csv, markdown"
            ]
        )
        #expect(
            registryErrors("set color nope") == [
                "invalid value 'nope' for setting 'color': expected one of on, off, auto"
            ]
        )
        #expect(registryErrors("set output") == ["missing argument VALUE for 'set'"])
        #expect(registryErrors("set 1x 5") == ["'1x' is neither a setting nor a valid variable name"])
        #expect(registryErrors("set _ 5") == ["'_' is neither a setting nor a valid variable name"])
        #expect(registryErrors("set outptu json") == [])
        // More words are arithmetic's (`set a 1 + 2`): their shape is SetCommand's to check.
        #expect(registryErrors("set a b c") == [])
        #expect(registryErrors("set $x 1") == ["the name in 'set' must be written literally, not with '$'"])
    }

    @Test func helpTopics() {
        #expect(registryErrors("help serch") == ["unknown command 'serch' (did you mean 'search'?)"])
        #expect(
            registryErrors("help search titel") == ["unknown subcommand 'titel' for 'search' (did you mean 'title'?)"]
        )
        #expect(registryErrors("help jobs x") == ["unknown subcommand 'x' for 'jobs' ('jobs' has no subcommands)"])
        #expect(registryErrors("help quit") == [])
    }

    @Test func requiredSubcommands() {
        let registry = CommandRegistry(commands: [
            CommandSpec(
                "cfg",
                group: .meta,
                summary: "Config",
                subcommands: [
                    CommandSpec("get", group: .meta, summary: "Get", positionals: [ArgumentSpec("KEY", "key")]),
                    CommandSpec("set", group: .meta, summary: "Set"),
                ]
            )
        ])
        func messages(_ text: String) -> [String] {
            guard case .failure(let diagnostics)? = registryResolve(text, registry: registry) else { return [] }
            return diagnostics.messages
        }
        #expect(messages("cfg gte x") == ["unknown subcommand 'gte' for 'cfg' (did you mean 'get'?)"])
        #expect(messages("cfg zzz") == ["unknown subcommand 'zzz' for 'cfg'"])
        #expect(messages("cfg") == ["missing subcommand for 'cfg' (expected one of get, set)"])
        #expect(messages("cfg get") == ["missing argument KEY for 'cfg get'"])
        #expect((try? registryResolve("cfg get k", registry: registry)?.get())?.path == ["cfg", "get"])
    }

    // MARK: Deferred values

    @Test func deferredValuesAreCheckedAfterInterpolation() throws {
        let pending = try #require(registryResolved("search dune --limit $n"))
        #expect(pending.hasDeferredValues)
        #expect(pending.int("limit") == nil)
        func finish(_ value: String) -> Result<ResolvedCommand, Diagnostics> {
            CommandRegistry.standard.finish(pending) { _ in .success(value) }
        }
        let done = try finish("7").get()
        #expect(done.int("limit") == 7)
        #expect(!done.hasDeferredValues)
        guard case .failure(let bad) = finish("abc"), case .failure(let high) = finish("500") else {
            Issue.record("expected failures")
            return
        }
        #expect(bad.messages == ["invalid value 'abc' for '--limit' (from '$n'): expected an integer 1–100"])
        #expect(bad[0].range == SourceRange(offset: 20, length: 2))
        #expect(high.messages == ["value 500 for '--limit' (from '$n') is out of range: expected an integer 1–100"])
    }

    @Test func interpolationFailuresPassThrough() throws {
        let pending = try #require(registryResolved("status ${_.jobId}"))
        let unknown = Diagnostic.error("no value at '_.jobId'", rule: .badPath, at: SourceRange(offset: 7, length: 10))
        guard
            case .failure(let failure) = CommandRegistry.standard.finish(
                pending,
                interpolate: { _ in .failure(unknown) }
            )
        else {
            Issue.record("expected failure")
            return
        }
        #expect(failure.all == [unknown])
        let ok = try CommandRegistry.standard.finish(pending) { _ in .success("job-1") }.get()
        #expect(ok.string("JOB") == "job-1")
    }

    @Test func deferredSettingsAndHelp() throws {
        let pending = try #require(registryResolved("set output $fmt"))
        let bad = CommandRegistry.standard.finish(pending) { _ in .success("xml") }
        #expect((try? bad.get()) == nil)
        let good = try CommandRegistry.standard.finish(pending) { _ in .success("csv") }.get()
        #expect(good.string("VALUE") == "csv")
        let help = try #require(registryResolved("help $topic"))
        let unknown = CommandRegistry.standard.finish(help) { _ in .success("serch") }
        guard case .failure(let diagnostics) = unknown else {
            Issue.record("expected failure")
            return
        }
        #expect(diagnostics.messages == ["unknown command 'serch' (did you mean 'search'?)"])
    }
}
