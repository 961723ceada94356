import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell

/// Issue 14's language over the live embedded server: blocks, lists, parameters, redirection,
/// pipes, aliases and pages.
@Suite("language")
struct LanguageTests {
    @Test func loopsConditionsAndLists() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                search title "the hunger games" --limit 3
                echo count=${_.count}
                for book in ${_.results}
                  if ${book.year} >= 2010
                    echo new ${book.isbn}
                  elif ${book.year} == 2009; echo mid ${book.isbn}
                  else
                    echo old ${book.isbn}
                  end
                end
                set isbns ${_.results[*].isbn}
                echo list: ${_.results[*].year}
                for w in words a b c d; if $w == b; continue; end; if $w == d; break; end; echo w=$w; end
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out.contains("old 9780439023481\nmid 9780439023498\nnew 9780439023511\n"))
            #expect(harness.out.contains("list: 2008 2009 2010\n"))
            #expect(harness.out.contains("w=a\nw=c\n"))
            #expect(!harness.out.contains("w=d"))
            let isbns = await harness.shell.variables["isbns"]
            #expect(isbns == .array([.string("9780439023481"), .string("9780439023498"), .string("9780439023511")]))
        }
    }

    @Test func aListGivesOneWordPerElement() async throws {
        try await withShell { harness in
            try harness.write("count.bts", "echo \"$# words, the second: ${2:-none}\"\n")
            let status = await harness.run(
                """
                search title "the hunger games" --limit 3
                source count.bts ${_.results[*].isbn}
                source count.bts "${_.results[*].year}"
                source count.bts x${_.results[*].year}
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out.contains("3 words, the second: 9780439023498\n3 words, the second: 2009\n"))
            #expect(harness.out.contains("1 words, the second: none\n"), "inside a longer word a list is joined")
        }
    }

    @Test func parametersDefaultsAndSourceArguments() async throws {
        try await withShell(scriptArguments: ["x", "y z"]) { harness in
            try harness.write("lib/show.bts", "echo \"in: $# [$@] ${1} ${2:-two}\"\n")
            let status = await harness.run(
                """
                echo "top: $# [$@] ${3:-three} ${nothing:-none}"
                source lib/show.bts a
                source lib/show.bts
                echo "back: $#"
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out == "top: 2 [x y z] three none\nin: 1 [a] a two\nin: 2 [x y z] x y z\nback: 2\n")
        }
    }

    @Test func loopOverTheLinesOfAFile() async throws {
        try await withShell { harness in
            try harness.write("isbns.txt", "9780439023481\r\n9780439023498\n")
            let status = await harness.run(
                "for isbn in lines isbns.txt; search isbn $isbn; echo ${_.results[0].year}; end"
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out.hasSuffix("2008\n") || harness.out.contains("2008\n"))
            #expect(harness.out.contains("2009\n"))
            let missing = await harness.run("for l in lines nope.txt; echo $l; end\necho after")
            #expect(missing == 1)
            #expect(harness.err.contains("cannot read 'nope.txt': no such file or not readable"))
        }
    }

    @Test func theWholeScriptIsCheckedFirst() async throws {
        try await withShell { harness in
            let status = await harness.run(
                "echo first\nfor x in a\n  edn\n  if $x >= 1 2\n  break\n  end\nend\ncontinue\nfor y in b\n"
            )
            #expect(status == 2)
            #expect(harness.out.isEmpty, "nothing ran")
            #expect(harness.err.contains("unknown command 'edn' (did you mean 'end'?)"))
            #expect(harness.err.contains("cannot read this 'if' condition"))
            #expect(harness.err.contains("'continue' outside a loop"))
            #expect(harness.err.contains("unclosed 'for' block"))
        }
    }

    @Test func redirectionWritesInTheFormatOfTheExtension() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                search dune --limit 2 > out.json
                search dune --limit 2 > out.csv
                search dune --limit 2 > out.md
                search dune --limit 2 --output ndjson > out.txt
                echo appended >> out.txt
                search 'dune > x.json' --limit 1
                """
            )
            #expect(status == 0, "\(harness.err)")
            let json = try String(contentsOf: harness.directory.appendingPathComponent("out.json"), encoding: .utf8)
            let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
            #expect(decoded["count"] == .number(2))
            let csv = try String(contentsOf: harness.directory.appendingPathComponent("out.csv"), encoding: .utf8)
            #expect(csv.hasPrefix("isbn,title,authors,year,pageCount\n9780340839935,"))
            let markdown = try String(contentsOf: harness.directory.appendingPathComponent("out.md"), encoding: .utf8)
            #expect(markdown.hasPrefix("| ISBN | TITLE |"), "\(markdown)")
            let text = try String(contentsOf: harness.directory.appendingPathComponent("out.txt"), encoding: .utf8)
            #expect(text.split(separator: "\n").count == 3)
            #expect(text.hasSuffix("\nappended\n"))
            #expect(!FileManager.default.fileExists(atPath: harness.directory.appendingPathComponent("x.json").path))
            #expect(!harness.out.contains("\"count\":2"), "nothing redirected reached stdout")
        }
    }

    @Test func anUnwritableFileIsAPlainErrorAndNothingRuns() async throws {
        try await withShell { harness in
            let status = await harness.run("search dune > /nonexistent-dir/out.json")
            #expect(status == 1)
            #expect(
                harness.err.contains("cannot write '/nonexistent-dir/out.json': No such file or directory"),
                "\(harness.err)"
            )
            let metrics = await harness.shell.lastMetrics
            #expect(metrics.calls == 0, "the file is opened before any request")
        }
    }

    @Test func pipesRunThroughShAndTheirStatusIsDollarQuestion() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                search dune --limit 3 --output csv | wc -l | tr -d ' '
                set onerror continue
                echo hello | grep -c nothing
                echo "status=$?"
                echo "a | b > c"
                """
            )
            #expect(harness.out.contains("4\n"), "\(harness.out)")
            #expect(harness.out.contains("0\nstatus=1\n"))
            #expect(harness.out.contains("a | b > c\n"))
            #expect(harness.err.contains("the pipeline 'grep -c nothing' exited with status 1"))
            #expect(status == 0)
        }
    }

    /// A pipeline that cannot run (`| nosuchcommand`: sh's 127) or fails in any other way is a failed
    /// command: `$?` and the script's exit status are 1 (bts's own; 127 became the exit status), the
    /// pipeline's own status is in the message and `$_`.
    @Test func aFailedPipelineIsAFailedCommandWhateverItsStatus() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                set onerror continue
                echo hello | nosuchcommand-bts-test
                echo "status=$? code=${_.error.code}"
                echo hello | sh -c 'cat >/dev/null; exit 3'
                echo "status=$?"
                """
            )
            #expect(harness.out.contains("status=1 code=PIPELINE_FAILED\n"), "\(harness.out)")
            #expect(harness.out.contains("status=1\n"), "\(harness.out)")
            #expect(
                harness.err.contains("the pipeline 'nosuchcommand-bts-test' exited with status 127"),
                "\(harness.err)"
            )
            #expect(harness.err.contains("exited with status 3"), "\(harness.err)")
            #expect(status == 0)
        }
        try await withShell { harness in
            let status = await harness.run("echo hello | nosuchcommand-bts-test\necho never")
            #expect(status == ExitStatus.failure.rawValue, "a script stopped by it exits 1, not 127")
            #expect(!harness.out.contains("never"))
        }
    }

    @Test func aliasesTakeArguments() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                alias hg search 9780439023481
                alias top 'search title $1 --limit ${2:-2}'
                alias say echo said
                hg
                echo ${_.results[0].year}
                top dune
                echo ${_.count}
                top dune 4
                echo ${_.count}
                say "a b" c
                alias
                unalias say
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out.contains("2008\n"))
            #expect(harness.out.contains("\n2\n"))
            #expect(harness.out.contains("\n4\n"))
            #expect(harness.out.contains("said a b c\n"))
            // In a pipe the list is JSON, as every result is.
            #expect(harness.out.contains(#""top":"search title $1 --limit ${2:-2}""#), "\(harness.out)")
            let aliases = await harness.shell.aliases
            #expect(aliases.keys.sorted() == ["hg", "top"])
            let refused = await harness.run("alias search echo")
            #expect(refused == 2)
            #expect(harness.err.contains("'search' is a bts command or keyword"))
        }
    }

    @Test func moreShowsTheNextPage() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                search dune --limit 5
                more
                expect ${_.offset} == 5
                search dune --page 3 --limit 5
                expect ${_.offset} == 10
                expect ${_.count} == 5
                """
            )
            #expect(status == 0, "\(harness.err)")
            let done = await harness.run("more")
            #expect(done == 1)
            #expect(harness.err.contains("no more results for 'dune': all 15 shown"))
        }
    }

    @Test func theSummarySaysHowToGetMoreAtThePrompt() async throws {
        try await withShell(
            settings: {
                var s = ShellSettings()
                s.output = .table
                return s
            }()
        ) { harness in
            _ = await harness.typed("search the --limit 10")
            _ = await harness.typed("more")
            #expect(harness.out.contains("(10 of 4652 results; 'more' shows the next 10)"))
            #expect(harness.out.contains("(11–20 of 4652 results; 'more' shows the next 10)"))
        }
    }

    /// Issue 33 item 11: `bts -c 'search the'` said "'more' shows the next 3", which no later
    /// process can do; a script or `-c` run gets the count only.
    @Test func aScriptIsNotToldAboutMore() async throws {
        try await withShell(
            settings: {
                var s = ShellSettings()
                s.output = .table
                return s
            }()
        ) { harness in
            _ = await harness.run("search the --limit 10", name: "-c")
            #expect(harness.out.contains("(10 of 4652 results)"), "\(harness.out)")
            #expect(!harness.out.contains("'more'"))
        }
    }
}
