import Foundation
import Testing

@testable import BTSShell

@Suite struct HelpRendererTests {
    @Test func goldenHelpForGatedCommand() {
        let renderer = HelpRenderer(isAvailable: { $0 != "similar_books" })
        #expect(
            renderer.help(for: ["similar"]) == """
                similar — Books similar to a given book

                (unavailable on this server: similar_books is disabled)

                Usage:
                  similar [BOOK...] [--limit N] [--library] [--shelf SHELF] [--columns NAME,…]

                The source book itself is not listed. On the embedded backend and `bts serve`,
                similar means shelved alike: the cosine of the books' reader shelves
                (goodbooks-10k: the 30 strongest of each book's 100 most-used shelves, weighted
                log(1+count) x IDF), with the same author or series only breaking ties; at most
                3 in 10 (rounded up) are by the source's own author or in its series (the next
                volume of the series first), and as many by any other one author; other editions
                of the source and the sets that hold it (boxed sets, omnibuses, two-in-one
                volumes) are left out. Fails with 'not found' when the catalog has no shelves
                for it. BOOK is an ISBN when it looks like one (as for `search`); other words
                are a title, and the first book a title search finds with an ISBN is the source
                (one more request, from the search budget; the footer and `sourceTitle` name it;
                for an ISBN, the embedded backend names it from its catalog). With --library (or
                --shelf), up to 10 of your library's books (highest rated first) are the
                sources, and books you already have are left out.

                Arguments:
                  [BOOK...]  The book to start from: its ISBN, or words of its title (the best
                             title match)

                Options:
                  -n, --limit N         Maximum number of results, 1–50 (default 10)
                  -L, --library         Start from your library's books; leave out those you
                                        have
                  -s, --shelf SHELF     With --library: start from this shelf's books
                      --columns NAME,…  Show these columns in this order: isbn, title, authors,
                                        score, like (table, csv and markdown; json and ndjson
                                        keep everything)
                  -o, --output FORMAT   Output format of this command: table, json, ndjson, csv
                                        or markdown
                  -h, --help            Show this help instead of running the command
                      --no-cache        Ask the server, not the response cache

                Examples:
                  similar 9780439023481
                  similar the left hand of darkness --limit 5
                  similar ${_.results[0].isbn}
                  similar --library --shelf read

                Needs the server feature 'similar_books'. Rate-limit budget: similar.

                """
        )
    }

    @Test func availableCommandHasNoMarker() {
        let text = HelpRenderer().help(for: ["similar"]) ?? ""
        #expect(!text.contains("unavailable"))
        #expect(text.hasPrefix("similar — "))
    }

    @Test func subcommandHelpAndAliases() {
        let renderer = HelpRenderer()
        let title = renderer.help(for: ["search", "title"]) ?? ""
        #expect(title.hasPrefix("search title — Search by title\n"))
        #expect(title.contains("  search title QUERY... [--limit N] [--offset N] [--page P] [--all]\n"))
        #expect(renderer.help(for: ["quit"])?.hasPrefix("exit — ") == true)
        #expect(renderer.help(for: ["nope"]) == nil)
        let search = renderer.help(for: ["search"]) ?? ""
        #expect(search.contains("Subcommands:\n  isbn    Look up one book by ISBN-10 or ISBN-13\n"))
    }

    @Test func overviewGroupsAndMarksUnavailableCommands() {
        let renderer = HelpRenderer(isAvailable: { $0 == "similar_books" })
        let text = renderer.overview()
        let mission = text.range(of: "Mission commands:")
        let meta = text.range(of: "Meta commands:")
        #expect(mission != nil && meta != nil)
        if let mission, let meta { #expect(mission.lowerBound < meta.lowerBound) }
        // Entries wrap under their summary column; compare the words.
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(
            words.contains(
                "semantic QUERY... Search by meaning (embedded backend: a sentence model over titles and shelves) (unavailable on this server: semantic_search is disabled)"
            )
        )
        #expect(text.contains("  similar [BOOK...]          Books similar to a given book\n"))
        #expect(words.contains("(weekly unavailable on this server: weekly_recommendations is disabled)"))
        #expect(
            text.contains(
                "  semantic QUERY...          Search by meaning (embedded backend: a sentence\n"
                    + "                             model over titles and shelves) (unavailable on this\n"
                    + "                             server: semantic_search is disabled)\n"
            )
        )
        for spec in CommandRegistry.standard.commands {
            #expect(text.contains("  \(spec.name)"), "\(spec.name)")
        }
    }

    /// Help at 80 columns: no line wider, and no word broken (every word of the spec's texts
    /// appears whole in the help).
    @Test func everyHelpFits80ColumnsBrokenBetweenWords() {
        let renderer = HelpRenderer(isAvailable: { _ in false })
        var texts = [renderer.overview()]
        for spec in CommandRegistry.standard.commands {
            texts.append(renderer.help(for: [spec.name]) ?? "")
            for sub in spec.subcommands { texts.append(renderer.help(for: [spec.name, sub.name]) ?? "") }
        }
        for text in texts {
            // Examples are commands to copy as they are: the one part not wrapped.
            let prose = text.components(separatedBy: "\nExamples:\n").first ?? text
            let after =
                text.components(separatedBy: "\nExamples:\n").dropFirst().first?
                .components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n") ?? ""
            for line in (prose + "\n" + after).split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        }
        let timing = renderer.help(for: ["timing"]) ?? ""
        #expect(timing.hasPrefix("timing — Turn the per-command timing display on or off (toggles without\n"))
        let words = Set((renderer.help(for: ["expect"]) ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" }))
        for word in ExpectCommand.spec.discussion.split(separator: " ") { #expect(words.contains(word), "\(word)") }
    }

    @Test func markdownReferenceCoversEveryCommand() {
        let markdown = CommandReference.markdown()
        // docs/commands.md is a page of its own: its title is '#', each command '###' (9b0ede9).
        #expect(markdown.hasPrefix("# Command reference\n"))
        for spec in CommandRegistry.standard.commands {
            #expect(markdown.contains("### `\(spec.name)`\n"), "\(spec.name)")
        }
        #expect(markdown.contains("### `search title`\n"))
        #expect(
            markdown.contains("| `similar [BOOK...]` | Books similar to a given book | `similar_books` | similar |\n")
        )
        #expect(markdown.contains("| `output` | table \\| json \\| ndjson \\| csv \\| markdown |"))
    }
}
