import BTSLanguage
import Testing

/// Every binding of a name in a script, scoped as an editor shows it (definition, references,
/// rename, the variables completion offers at a place).
@Suite struct ScriptBindingsTests {
    /// The registry's names as the shell hands them down (this module's tests cannot read it).
    static let vocabulary = ScriptBindings.Vocabulary(
        set: "set",
        alias: "alias",
        unalias: "unalias",
        settingNames: ["output", "onerror"]
    )

    /// A script's bindings and a way to find places in its text.
    struct Fixture {
        let source: SourceFile
        let bindings: ScriptBindings

        init(_ text: String) {
            let result = Parser.parse(text, name: "t.bts")
            source = result.source
            bindings = ScriptBindings(result.script, vocabulary: ScriptBindingsTests.vocabulary)
        }

        /// The byte offset of the `occurrence`th (from 0) `needle`, plus `plus`.
        func offset(of needle: String, _ occurrence: Int = 0, plus: Int = 0) -> Int {
            let bytes = Array(source.text.utf8)
            let wanted = Array(needle.utf8)
            var found = -1
            var start = 0
            while start + wanted.count <= bytes.count {
                if Array(bytes[start..<(start + wanted.count)]) == wanted {
                    found += 1
                    if found == occurrence { return start + plus }
                }
                start += 1
            }
            Issue.record("no \(occurrence)th '\(needle)'")
            return 0
        }

        /// The binding of the name at `offset`.
        func binding(at offset: Int) -> ScriptBindings.Binding? {
            bindings.occurrence(at: offset).map { bindings.binding($0.binding) }
        }

        /// `line:column` of each reference (definitions included) of the binding at `offset`.
        func references(at offset: Int, includeDeclaration: Bool = true) -> [String] {
            guard let binding = binding(at: offset) else { return ["none"] }
            return bindings.references(of: binding, includeDeclaration: includeDeclaration).map { range in
                let location = source.location(of: range.offset)
                return "\(location.line):\(location.column) \(source.slice(range))"
            }
        }

        /// The names visible at `offset`, a loop's marked `for`.
        func visible(at offset: Int) -> [String] {
            bindings.bindings(at: offset).map {
                ($0.kind == .loop ? "for " : $0.kind == .alias ? "alias " : "") + $0.name
            }
        }
    }

    @Test func aSetVariableIsOneBindingReadEverywhereAndAssignedByEverySet() {
        let script = Fixture(
            """
            set n 3
            echo $n ${n} "n is ${n:-0}" 'not $n'
            set n $n + 1
            if $n > 3; set n 10; end
            expect $n == 10
            """
        )
        let binding = script.binding(at: script.offset(of: "$n", plus: 1))
        #expect(binding?.kind == .variable)
        #expect(binding?.definitions.count == 3)
        #expect(binding?.definitions.first?.value == .literal("3"))
        #expect(binding?.definitions[1].value == .arithmetic("$n + 1"))
        #expect(
            script.references(at: script.offset(of: "set n", plus: 4)) == [
                "1:5 n", "2:7 n", "2:11 n", "2:22 n", "3:5 n", "3:8 n", "4:5 n", "4:16 n", "5:9 n",
            ]
        )
        #expect(script.references(at: script.offset(of: "${n}", plus: 2), includeDeclaration: false).count == 6)
        // Inside single quotes, '$n' is text.
        #expect(script.bindings.occurrence(at: script.offset(of: "not $n", plus: 5)) == nil)
    }

    @Test func aLoopVariableIsBoundInItsBodyAndHidesTheScriptsVariable() {
        let script = Fixture(
            """
            set book first
            search title dune
            for book in ${_.results}
              echo ${book.title}
              set book changed
            end
            echo $book
            """
        )
        let loop = script.binding(at: script.offset(of: "${book.title}", plus: 2))
        #expect(loop?.kind == .loop)
        #expect(loop?.definitions.first?.value == .items(.elements, text: "${_.results}", range: loopItems(script)))
        #expect(script.references(at: script.offset(of: "for book", plus: 4)) == ["3:5 book", "4:10 book", "5:7 book"])
        #expect(script.references(at: script.offset(of: "echo $book", plus: 6)) == ["1:5 book", "7:7 book"])
    }

    private func loopItems(_ script: Fixture) -> SourceRange {
        SourceRange(offset: script.offset(of: "${_.results}"), length: "${_.results}".utf8.count)
    }

    @Test func nestedLoopsOfOneNameAreTwoBindings() {
        let script = Fixture(
            """
            for book in ${_.results}
              echo ${book.title}
              for book in ${book.authors}
                echo $book
              end
            end
            """
        )
        let outer = script.references(at: script.offset(of: "book", 0))
        #expect(outer == ["1:5 book", "2:10 book", "3:17 book"])
        let inner = script.references(at: script.offset(of: "$book", plus: 1))
        #expect(inner == ["3:7 book", "4:11 book"])
        let innerBinding = script.binding(at: script.offset(of: "$book", plus: 1))
        #expect(
            innerBinding?.definitions.first?.value
                == .items(.elements, text: "${book.authors}", range: itemsOfInner(script))
        )
    }

    private func itemsOfInner(_ script: Fixture) -> SourceRange {
        SourceRange(offset: script.offset(of: "${book.authors}"), length: "${book.authors}".utf8.count)
    }

    @Test func aLoopVariableIsVisibleOnlyInsideItsLoop() {
        let script = Fixture(
            """
            set total 0
            for book in a b
              set seen 1
              echo $book
            end
            echo done
            """
        )
        // In the loop: its variable, and what is set above (in the loop too).
        #expect(script.visible(at: script.offset(of: "echo $book")) == ["for book", "seen", "total"])
        #expect(script.visible(at: script.offset(of: "set seen")) == ["for book", "total"])
        // A `set` inside a loop assigns the script's variable: visible after the loop.
        #expect(script.visible(at: script.offset(of: "echo done")) == ["seen", "total"])
        // Not in the loop's own header.
        #expect(script.visible(at: script.offset(of: "a b")) == ["total"])
        #expect(script.visible(at: 0) == [])
    }

    @Test func reservedNamesSettingsAndArgumentsAreNotBindings() {
        let script = Fixture(
            """
            set output json
            echo $_ ${_.count} ${_http.status} ${env.HOME} $1 $# $@ $? $output
            """
        )
        #expect(script.bindings.bindings.isEmpty)
        #expect(script.bindings.uses.isEmpty)
        #expect(script.bindings.otherReads.map(\.name) == ["_", "_", "_http", "env", "1", "#", "@", "output"])
    }

    @Test func aVariableNeverSetComesFromOutside() {
        let script = Fixture("search title \"$QUERY\" --limit ${PAGE:-20}\necho $QUERY")
        let page = script.binding(at: script.offset(of: "PAGE"))
        #expect(page?.kind == .external)
        #expect(page?.definitions.isEmpty == true)
        if let page { #expect(script.bindings.uses(of: page).first?.fallback == "20") }
        #expect(script.references(at: script.offset(of: "$QUERY", 1, plus: 3)) == ["1:16 QUERY", "2:7 QUERY"])
    }

    @Test func anAliasIsDefinedCalledAndNamed() {
        let script = Fixture(
            """
            top dune
            alias top 'search title $1 --limit 3'
            top dune
            alias top
            unalias top
            echo top
            """
        )
        let alias = script.binding(at: script.offset(of: "top", 1))
        #expect(alias?.kind == .alias)
        #expect(alias?.definitions.first?.value == .aliasText("search title $1 --limit 3"))
        #expect(
            script.references(at: script.offset(of: "top", 2)) == [
                "1:1 top", "2:7 top", "3:1 top", "4:7 top", "5:9 top",
            ]
        )
        #expect(script.visible(at: script.offset(of: "top dune", 1)) == ["alias top"])
    }

    @Test func renamingRefusesANameThatWouldMergeOrHide() {
        let script = Fixture(
            """
            set n 1
            set m 2
            for book in a b
              for author in c d
                echo $book $author $n
              end
            end
            for other in e; echo $other; end
            alias top search dune
            alias hg search 9780439023481
            """
        )
        let n = script.binding(at: script.offset(of: "set n", plus: 4))
        let book = script.binding(at: script.offset(of: "$book", plus: 1))
        let author = script.binding(at: script.offset(of: "$author", plus: 1))
        let other = script.binding(at: script.offset(of: "$other", plus: 1))
        let top = script.binding(at: script.offset(of: "top"))
        guard let n, let book, let author, let other, let top else {
            Issue.record("missing bindings")
            return
        }
        #expect(script.bindings.conflict(renaming: n, to: "m")?.message.contains("already a variable") == true)
        #expect(script.bindings.conflict(renaming: n, to: "book") != nil)
        #expect(script.bindings.conflict(renaming: n, to: "count") == nil)
        #expect(script.bindings.conflict(renaming: n, to: "top") == nil)
        #expect(script.bindings.conflict(renaming: book, to: "author")?.message.contains("hide") == true)
        #expect(script.bindings.conflict(renaming: author, to: "book") != nil)
        #expect(script.bindings.conflict(renaming: author, to: "n") != nil)
        // A loop beside it may take the name.
        #expect(script.bindings.conflict(renaming: other, to: "book") == nil)
        #expect(script.bindings.conflict(renaming: top, to: "hg")?.message.contains("alias") == true)
        #expect(script.bindings.conflict(renaming: top, to: "n") == nil)
    }

    @Test func aReadAfterALoopOfItsNameLinksTheTwo() {
        let script = Fixture(
            """
            for book in a b
              echo $book
            end
            echo $book
            set book c
            echo $book
            """
        )
        let loop = script.binding(at: script.offset(of: "$book", plus: 1))
        let after = script.binding(at: script.offset(of: "$book", 1, plus: 1))
        guard let loop, let after else {
            Issue.record("missing bindings")
            return
        }
        #expect(loop.id != after.id)
        let conflict = script.bindings.conflict(renaming: loop, to: "b")
        #expect(conflict?.message.contains("last item") == true)
        #expect(conflict?.range.offset == script.offset(of: "$book", 1, plus: 1))
        #expect(script.bindings.conflict(renaming: after, to: "b") != nil)
        // Set again before it is read, the variable no longer holds the loop's item.
        let later = Fixture("for book in a b; echo $book; end\nset book c\necho $book")
        if let laterLoop = later.binding(at: later.offset(of: "$book", plus: 1)) {
            #expect(later.bindings.conflict(renaming: laterLoop, to: "b") == nil)
        }
    }

    @Test func aLoopsItemsReadTheLastItemOfALoopBefore() {
        let script = Fixture("for b in x y; end\nfor c in $b; echo $c; end")
        guard let first = script.binding(at: script.offset(of: "for b", plus: 4)) else {
            Issue.record("no loop")
            return
        }
        #expect(first.kind == .loop)
        #expect(script.bindings.conflict(renaming: first, to: "z")?.range.offset == script.offset(of: "$b", plus: 1))
    }

    @Test func nonASCIITextKeepsByteRanges() {
        let script = Fixture("echo \"Café 📚 $name\"\nset name x")
        #expect(script.references(at: script.offset(of: "$name", plus: 2)) == ["1:16 name", "2:5 name"])
    }
}
