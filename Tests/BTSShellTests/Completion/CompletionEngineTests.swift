import BTSLanguage
import BTSShell
import BTSTerminal
import Testing

@Suite("Completion engine: registry words")
struct CompletionEngineRegistryTests {
    let engine = CompletionFixtures.engine()

    @Test("a command completes with a space")
    func command() {
        #expect(engine.tab("sea") == "search ")
        #expect(engine.tab("jobs; sea") == "jobs; search ")
        #expect(engine.answer("se").candidates == ["search", "semantic", "set"])
        #expect(engine.answer("").candidates.count == CommandRegistry.standard.commands.count + Parser.keywords.count)
        #expect(engine.answer("el").candidates == ["elif", "else"])
        #expect(engine.tab("for book i") == "for book in ")
        #expect(engine.answer("for book in l").candidates == ["lines"])
        #expect(engine.answer("if ex").candidates == ["exists"])
        #expect(engine.tab("zz") == "zz")
    }

    @Test("unavailable gated commands are marked in the listing, still completable")
    func unavailable() {
        var context = CompletionFixtures.context()
        context.unavailableCommands = ["similar": "the server has 'similar_books' switched off"]
        let engine = CompletionFixtures.engine(context)
        let answer = engine.answer("s")
        #expect(
            answer.candidates == ["search", "similar", "semantic", "scan", "save", "status", "set", "sleep", "source"]
        )
        #expect(answer.display?.contains("similar (unavailable)") == true)
        #expect(answer.display?.contains("search") == true)
        #expect(engine.tab("sim") == "similar ")
        #expect(CompletionFixtures.engine().answer("s").display == nil)
    }

    @Test("subcommands, options and option values")
    func optionsAndValues() {
        #expect(engine.tab("search ti") == "search title ")
        #expect(engine.tab("search title dune --li") == "search title dune --limit ")
        #expect(
            engine.answer("search title dune -").candidates == [
                "--limit", "--offset", "--page", "--all", "--columns", "--output", "--help", "--no-cache",
            ]
        )
        #expect(engine.tab("search dune --output js") == "search dune --output json ")
        #expect(engine.tab("search dune --output=nd") == "search dune --output=ndjson ")
        #expect(engine.tab("enrich 9780441172719 --provider open") == "enrich 9780441172719 --provider openlibrary ")
        #expect(
            engine.answer("enrich 9780441172719 --provider ").candidates
                == ["auto", "google_books", "openlibrary", "isbndb"]
        )
    }

    @Test("settings, their values, and variables for set")
    func settings() {
        #expect(engine.tab("set col") == "set color ")
        #expect(engine.answer("set color ").candidates == ["on", "off", "auto"])
        #expect(engine.tab("set wait of") == "set wait off ")
        // Settings first, then variables of the session (not `_`).
        #expect(
            engine.answer("set ").candidates == [
                "output", "color", "timing", "wait", "onerror", "pager", "progress", "offline", "library", "looplimit",
                "expanded", "book", "books", "limit",
            ]
        )
        #expect(engine.answer("set o").candidates == ["output", "onerror", "offline"])
    }

    @Test("profiles for connect, help topics")
    func profilesAndHelp() {
        #expect(engine.answer("connect ").candidates == ["embedded", "local", "production", "staging", "work"])
        #expect(engine.tab("connect pro") == "connect production ")
        #expect(engine.tab("help sea") == "help search ")
        #expect(engine.tab("help search ti") == "help search title ")
    }

    @Test("nothing to offer: no candidates, buffer unchanged")
    func nothing() {
        #expect(engine.answer("search title dune --limit ").candidates.isEmpty)
        #expect(engine.answer("nosuch x").candidates.isEmpty)
        #expect(engine.answer("echo hello").candidates.isEmpty)
        #expect(engine.tab("sleep 2") == "sleep 2")
    }

    @Test("the cursor in the middle: only the text before it counts; the rest stays")
    func middleCursor() {
        let line = "sea dune"
        let answer = engine.answer(line: line, cursorOffset: 3)
        #expect(answer.range == 0..<3)
        #expect(answer.candidates == ["search"])
        let request = CompletionRequest(line: line, cursor: line.index(line.startIndex, offsetBy: 3))
        let completion = engine.completion(for: request)
        #expect(String(line[completion.replacementRange]) == "sea")
    }
}

@Suite("Completion engine: session data")
struct CompletionEngineSessionTests {
    let engine = CompletionFixtures.engine()

    @Test("job ids for watch, status, results, cancel (with 'last')")
    func jobs() {
        for command in ["watch", "status", "results", "cancel"] {
            #expect(engine.answer("\(command) ").candidates == ["last", "job-batch-2", "job-import-1"])
        }
        #expect(
            engine.answer("watch ").display == [
                "last", "job-batch-2  (enrich batch, running)", "job-import-1  (import, done)",
            ]
        )
        #expect(engine.tab("status job-i") == "status job-import-1 ")
        #expect(engine.tab("watch la") == "watch last ")
        #expect(engine.answer("cancel x").candidates.isEmpty)
    }

    @Test("ISBNs seen earlier for search isbn, similar, enrich (hyphens typed are fine)")
    func isbns() {
        #expect(engine.tab("similar 978055") == "similar 9780553293357 ")
        #expect(engine.tab("search isbn 978-0-553") == "search isbn 9780553293357 ")
        #expect(engine.answer("enrich 9780441172").candidates == ["9780441172696", "9780441172719"])
        #expect(engine.tab("enrich 978044117") == "enrich 9780441172")
        #expect(engine.answer("enrich 9780441172").display == ["9780441172696  Dune Messiah", "9780441172719  Dune"])
        #expect(engine.answer("enrich 9780441172719 978055").candidates == ["9780553293357"])
        #expect(engine.answer("similar abc").candidates.isEmpty)
        // A plain search query that looks like an ISBN offers ISBNs.
        #expect(engine.tab("search 978055") == "search 9780553293357 ")
    }

    @Test("titles: case- and accent-insensitive prefix, inserted quoted")
    func titles() {
        #expect(engine.tab("search title foun") == "search title \"Foundation\" ")
        #expect(engine.tab("search title FOUN") == "search title \"Foundation\" ")
        #expect(engine.answer("search title du").candidates == ["\"Dune\"", "\"Dune Messiah\""])
        #expect(engine.answer("search title du").display == ["Dune", "Dune Messiah"])
        #expect(engine.tab("search title du") == "search title \"Dune")
        #expect(engine.tab("search title \"Dune M") == "search title \"Dune Messiah\" ")
        // `'` opens a literal string in bts: typed inside double quotes or escaped it is text.
        #expect(engine.tab("search title \"l'e") == "search title \"L'Étranger\" ")
        #expect(engine.tab("search title l\\'E") == "search title \"L'Étranger\" ")
        #expect(engine.tab("search title cafe") == "search title \"Café \\\"Größenwahn\\\" \\$pecial\" ")
        #expect(engine.tab("search --title foun") == "search --title \"Foundation\" ")
        // A plain query (no subcommand) offers titles, merged with subcommands.
        #expect(engine.tab("search fou") == "search \"Foundation\" ")
        #expect(engine.answer("search t").candidates == ["title", "\"The Left Hand of Darkness\""])
    }

    @Test("several typed words form one title query")
    func multiWordTitles() {
        #expect(engine.tab("search title dune mes") == "search title \"Dune Messiah\" ")
        #expect(engine.tab("search the left h") == "search \"The Left Hand of Darkness\" ")
        #expect(engine.tab("search title the left --limit 5 ha") == "search title the left --limit 5 ha")
        // No title starts with "dune foun", but "foun" alone does.
        #expect(engine.tab("search title dune foun") == "search title dune \"Foundation\" ")
    }

    @Test("variables after $ and ${, also inside double quotes")
    func variables() {
        #expect(engine.answer("echo $bo").candidates == ["$book", "$books"])
        #expect(engine.tab("echo $li") == "echo $limit ")
        #expect(engine.tab("echo ${li") == "echo ${limit} ")
        #expect(engine.tab("similar $bo") == "similar $book")
        #expect(engine.answer("echo \"found $li").appendSpace == false)
        #expect(engine.tab("echo \"found $li") == "echo \"found $limit")
        #expect(engine.answer("echo $").candidates == ["$_", "$book", "$books", "$limit"])
        #expect(engine.answer("echo \\$bo").candidates.isEmpty)
        #expect(engine.tab("search title dune --limit $li") == "search title dune --limit $limit ")
    }
}
