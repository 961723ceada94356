import BTSLanguage
import BooksTrackSupport
import Foundation
import Testing

/// `bts fmt`'s layout: indentation by block depth, one space between words, comments and line
/// continuations kept, blank lines collapsed; idempotent, and the script means the same.
@Suite struct ScriptFormatterTests {
    /// The formatted text, or nil when the script does not parse.
    private static func formatted(_ text: String) -> String? {
        guard case .success(let formatted) = ScriptFormatter.format(text, name: "t.bts") else { return nil }
        return formatted
    }

    /// A description of a value with every source range left out: scripts that differ only in
    /// layout describe alike (commands, words' parts, options, redirections, loops, conditions).
    private static func shape(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard !mirror.children.isEmpty else { return String(describing: value) }
        let fields = mirror.children.compactMap { child -> String? in
            if child.value is SourceRange { return nil }
            return (child.label.map { "\($0): " } ?? "") + shape(child.value)
        }
        return "\(mirror.subjectType)(\(fields.joined(separator: ", ")))"
    }

    /// The shape of the statements a text parses to.
    private static func meaning(_ text: String) -> String {
        shape(Parser.parse(text, name: "t.bts").script.statements)
    }

    /// Checks that `text` formats, that formatting again changes nothing and that the formatted
    /// text parses to the same statements.
    private static func expectStable(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard let once = formatted(text) else {
            Issue.record("does not format: \(text.debugDescription)", sourceLocation: sourceLocation)
            return
        }
        #expect(formatted(once) == once, "not idempotent: \(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(
            meaning(once) == meaning(text),
            "meaning changed: \(text.debugDescription) → \(once.debugDescription)",
            sourceLocation: sourceLocation
        )
    }

    static let examples: [String] = [
        """
        for book in ${_.results}
        if ${book.year} >= 2009
                echo "${book.isbn}: ${book.title}"
           elif exists ${book.year}; echo old
         else
        echo none
              end
            end
        echo done
        """,
        "for word in words one two three; if $word == two; continue; end; echo $word; end",
        "if $? != 0;echo no ;  end ;",
        "if $x == 1\n'end' now\n\"for\" x in y\necho end for if\nend",
        "search   title  'the  hunger'   \"x $y\"  ${_.results[0].isbn}   --limit=5 -n 3 -- --raw",
        "search the --limit 50|sort -k2 | head -5   \nsearch title dune   >   dune.json\nsearch author x >>x.csv",
        "echo \"a | b > c\" 'd;e'\necho a |   sort  \t",
        "#!/usr/bin/env bts   \n# header  \nfor x in a b   # loop\n    # inside\n  echo \"#not a comment\" x#y   # trailing\nend",
        "echo a;# c\necho b ; ; echo c;;",
        "search title dune \\\n--limit 5 \\\n      --output json",
        "for x in a\necho one \\\ntwo\nend",
        "echo one\\\n   two\necho one\\\ntwo\nsearch dune \\\n| sort\necho a \\\n\necho b",
        "echo a \\\n  # note\necho b; \\\necho c\n\\\necho d",
        "\n\n\necho a\n\n\n\necho b\n\n\n",
        "for x in a b\r\n  echo $x # c\r\nend\r\necho a \\\r\n  b | sort\r\n",
        "for x in a\n\techo\t$x\t\nend\necho '\ta\t'",
        "echo \"two\n  lines  \n\" after\nset x ${1:-5}; echo $# $@ $?",
        "for l in lines books.txt\nfor w in words $l\nif $w == stop; break\nelse\n# skip it\ncontinue\nend\nend\nend",
        "expect ${_.totalCount} > 0\nif ${_.totalCount} >= 3 ; echo many ; end",
        "",
        "  \n\t\n",
        "# only",
        // A stray `\r`: an escaped one ending a word, one ending a pipeline.
        "echo a\\\r",
        "echo a\\\r\r\necho b",
        "echo a | x\r \necho b |\ty\r\r\n",
    ]

    @Test func nestedBlocksAreIndentedTwoSpacesALevel() {
        #expect(
            Self.formatted(Self.examples[0]) == """
                for book in ${_.results}
                  if ${book.year} >= 2009
                    echo "${book.isbn}: ${book.title}"
                  elif exists ${book.year}; echo old
                  else
                    echo none
                  end
                end
                echo done

                """
        )
    }

    @Test func oneLineBlocksStayOnOneLine() {
        #expect(Self.formatted(Self.examples[1]) == Self.examples[1] + "\n")
        #expect(Self.formatted(Self.examples[2]) == "if $? != 0; echo no; end\n")
        #expect(Self.formatted("for x in a b; echo $x\nend") == "for x in a b; echo $x\nend\n")
        #expect(Self.formatted("for x in a b\n echo $x; end\necho c") == "for x in a b\n  echo $x; end\necho c\n")
        #expect(
            Self.formatted("for x in a\nfor y in b\necho\nend; end")
                == "for x in a\n  for y in b\n    echo\n  end; end\n"
        )
    }

    @Test func onlyUnquotedCommandNamesAreKeywords() {
        #expect(
            Self.formatted(Self.examples[3]) == "if $x == 1\n  'end' now\n  \"for\" x in y\n  echo end for if\nend\n"
        )
    }

    @Test func whileOpensABlock() {
        #expect(Self.formatted("while $i < 3\nset i 3\nend") == "while $i < 3\n  set i 3\nend\n")
    }

    @Test func wordsAreCopiedAsWritten() {
        #expect(
            Self.formatted(Self.examples[4])
                == "search title 'the  hunger' \"x $y\" ${_.results[0].isbn} --limit=5 -n 3 -- --raw\n"
        )
        #expect(Self.formatted(Self.examples[16]) == "echo \"two\n  lines  \n\" after\nset x ${1:-5}; echo $# $@ $?\n")
    }

    @Test func pipesAndRedirections() {
        #expect(
            Self.formatted(Self.examples[5])
                == "search the --limit 50 | sort -k2 | head -5\nsearch title dune > dune.json\nsearch author x >>x.csv\n"
        )
        #expect(Self.formatted(Self.examples[6]) == "echo \"a | b > c\" 'd;e'\necho a | sort\n")
        #expect(
            Self.formatted(Self.examples[18]) == "expect ${_.totalCount} > 0\nif ${_.totalCount} >= 3; echo many; end\n"
        )
    }

    @Test func commentsKeepTheirPlace() {
        #expect(
            Self.formatted(Self.examples[7]) == """
                #!/usr/bin/env bts
                # header
                for x in a b # loop
                  # inside
                  echo "#not a comment" x#y # trailing
                end

                """
        )
        #expect(Self.formatted(Self.examples[8]) == "echo a # c\necho b; echo c\n")
        #expect(
            Self.formatted(Self.examples[17]) == """
                for l in lines books.txt
                  for w in words $l
                    if $w == stop; break
                    else
                      # skip it
                      continue
                    end
                  end
                end

                """
        )
    }

    @Test func continuedLinesGoOneLevelDeeper() {
        #expect(Self.formatted(Self.examples[9]) == "search title dune \\\n  --limit 5 \\\n  --output json\n")
        #expect(Self.formatted(Self.examples[10]) == "for x in a\n  echo one \\\n    two\nend\n")
        // A continuation at a word's end is written apart; one inside a word is the word's.
        #expect(
            Self.formatted(Self.examples[11])
                == "echo one \\\n  two\necho one\\\ntwo\nsearch dune \\\n  | sort\necho a\necho b\n"
        )
        // One that joins no words is dropped.
        #expect(Self.formatted(Self.examples[12]) == "echo a # note\necho b; echo c\necho d\n")
    }

    @Test func blankLinesCollapse() {
        #expect(Self.formatted(Self.examples[13]) == "echo a\n\necho b\n")
        #expect(Self.formatted("echo a\n  \n\t\n# c\n\n") == "echo a\n\n# c\n")
    }

    @Test func lineEndsTabsAndEmptyInput() {
        #expect(Self.formatted(Self.examples[14]) == "for x in a b\n  echo $x # c\nend\necho a \\\n  b | sort\n")
        #expect(Self.formatted(Self.examples[15]) == "for x in a\n  echo $x\nend\necho '\ta\t'\n")
        #expect(Self.formatted("") == "")
        #expect(Self.formatted("  \n\t\n") == "")
        #expect(Self.formatted("# only") == "# only\n")
    }

    @Test(arguments: ["echo 'unclosed", "end", "for x in a\necho $x", "echo a |", "if\nend"])
    func aScriptWithErrorsIsNotFormatted(text: String) {
        guard case .failure(let failure) = ScriptFormatter.format(text, name: "t.bts") else {
            Issue.record("formatted \(text.debugDescription)")
            return
        }
        #expect(!failure.diagnostics.isEmpty)
        #expect(failure.diagnostics.allSatisfy { $0.severity == .error })
        #expect(failure.diagnostics.map(\.message) == Parser.parse(text).diagnostics.map(\.message))
        #expect(failure.source.text == text)
    }

    @Test(arguments: examples)
    func formattingIsIdempotentAndKeepsTheMeaning(text: String) {
        Self.expectStable(text)
    }

    @Test func theExampleScriptsFormat() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/examples")
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        var count = 0
        for case let url as URL in enumerator where url.pathExtension == "bts" {
            Self.expectStable(try String(contentsOf: url, encoding: .utf8))
            count += 1
        }
        #expect(count >= 4)
    }

    /// Random scripts: formatting never crashes, and one that parses formats stably.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomScripts(seed: UInt64) {
        let alphabet = [
            "a", "b", " ", " ", "\t", "'", "\"", "$x", "${_.a}", "\\", ";", "#", "\n", "\n", "\r\n", "|",
            ">", ">>", "--n", "-", "for x in a", "if $x", "while $x", "elif 1", "else", "end", "break", "\\\n", "\r",
        ]
        var generator = SplitMix64(seed: seed)
        for _ in 0..<2000 {
            let length = Int.random(in: 0...30, using: &generator)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined()
            if case .success = ScriptFormatter.format(text, name: "t.bts") { Self.expectStable(text) }
        }
    }

    /// A large script formats in linear time.
    @Test func aLargeScriptFormatsAsItsBlocksDo() {
        let block =
            "for x in a b  # c\n  if $x == a;echo \"$x\" | sort\n\n\n  else\necho 'b' \\\n  >> out.txt\nend\nend\n"
        let one = Self.formatted(block)
        let text = String(repeating: block, count: 2_000)
        #expect(one?.isEmpty == false)
        #expect(Self.formatted(text) == one.map { String(repeating: $0, count: 2_000) })
    }
}
