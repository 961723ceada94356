import BTSLanguage
import BTSLanguageServer
import BTSShell
import BooksTrackContract
import Testing

/// Completion of result fields after `${_.`, `${LOOPVAR.` and `${_http.`, and hover on keywords,
/// fields and `${env.NAME}`, message by message.
@Suite("language server fields")
struct LanguageServerFieldTests {
    typealias Client = LanguageServerTests

    /// The completion items at a place of the open document.
    static func items(_ server: LanguageServer, _ line: Int, _ character: Int) async -> [JSONValue] {
        await Client.request(server, "textDocument/completion", line: line, character: character)?["items"]?
            .arrayValue ?? []
    }

    static func labels(_ server: LanguageServer, _ line: Int, _ character: Int) async -> [String] {
        await items(server, line, character).compactMap { $0["label"]?.stringValue }
    }

    static func hover(_ server: LanguageServer, _ line: Int, _ character: Int) async -> String? {
        await Client.request(server, "textDocument/hover", line: line, character: character)?["contents"]?["value"]?
            .stringValue
    }

    @Test func theResultOfTheCommandBeforeOffersItsFields() async throws {
        let (server, home) = try await Client.started()
        let text = """
            search title dune
            echo ${_.re
            echo ${_.
            similar 9780439023481
            expect ${_.count} > 0
            echo ${_.so
            search isbn ${_.so}
            """
        _ = await Client.open(server, text)
        let results = await Self.items(server, 1, 11)
        #expect(results.compactMap { $0["label"]?.stringValue } == ["results"], "\(results)")
        let item = results.first
        #expect(item?["kind"] == 5, "a field")
        #expect(item?["detail"] == "list of record")
        #expect(item?["documentation"] == "the books of this page")
        #expect(item?["textEdit"]?["range"]?["start"]?["character"] == 9)
        #expect(item?["textEdit"]?["newText"] == "results")
        let all = await Self.labels(server, 2, 9)
        #expect(all.prefix(5) == ["query", "kind", "totalCount", "count", "results"], "\(all)")
        #expect(all.contains("error"), "a failure's value too: \(all)")
        #expect(!all.contains("sourceIsbn"), "\(all)")
        // `expect` leaves `$_` as it was: the fields are `similar`'s.
        #expect(await Self.labels(server, 5, 11) == ["sourceIsbn", "sourceTitle", "source"])
        // Inside a whole command, `$_` is the result of the one before it.
        #expect(await Self.labels(server, 6, 18) == ["sourceIsbn", "sourceTitle", "source"])
        await Client.close(home)
    }

    @Test func aLoopVariableOffersTheElementsFieldsAndPathsDescend() async throws {
        let (server, home) = try await Client.started()
        let text = """
            search title dune
            for b in ${_.results}
              if exists ${b.year}
                echo ${b.ti
              end
              echo ${_.results[0].au
            end
            echo ${_http.st
            library list
            for book in ${_.books}
              echo ${book.sh
            end
            """
        _ = await Client.open(server, text)
        let title = await Self.items(server, 3, 15)
        #expect(title.compactMap { $0["label"]?.stringValue } == ["title"], "\(title)")
        #expect(title.first?["detail"] == "string")
        #expect(await Self.labels(server, 5, 24) == ["authors"])
        let status = await Self.items(server, 7, 15)
        #expect(status.compactMap { $0["label"]?.stringValue } == ["status"], "\(status)")
        #expect(status.first?["detail"] == "number")
        #expect(await Self.labels(server, 10, 16) == ["shelf"])
        let year = await Self.hover(server, 2, 17)
        #expect(year?.hasPrefix("${b.year}: number (optional)") == true, "\(String(describing: year))")
        await Client.close(home)
    }

    @Test func aClosedBlockBeforeIsPassedOver() async throws {
        let (server, home) = try await Client.started()
        let text = """
            search title dune
            if ${_.count} > 0
              similar 9780439023481
            end
            echo ${_.que
            """
        _ = await Client.open(server, text)
        #expect(await Self.labels(server, 4, 12) == ["query"])
        await Client.close(home)
    }

    @Test func hoverExplainsKeywordsFieldsAndTheEnvironment() async throws {
        let (server, home) = try await Client.started()
        let text = """
            search title dune
            while ${_.count} > 0 and exists ${_.results[0].title}
              more
            end
            echo ${env.HOME} ${_http.status} ${_.results}
            search title "dune"
            """
        _ = await Client.open(server, text)
        let keyword = await Self.hover(server, 1, 2)
        #expect(keyword?.hasPrefix("while COND … end") == true, "\(String(describing: keyword))")
        #expect(keyword?.contains("Example: while $seen < ${_.totalCount}") == true)
        let and = await Self.hover(server, 1, 22)
        #expect(and?.hasPrefix("TERM and TERM") == true, "\(String(describing: and))")
        let count = await Self.hover(server, 1, 12)
        #expect(count?.hasPrefix("${_.count}: number") == true, "\(String(describing: count))")
        let title = await Self.hover(server, 1, 50)
        #expect(title?.hasPrefix("${_.results[0].title}: string") == true, "\(String(describing: title))")
        let environment = await Self.hover(server, 4, 12)
        #expect(environment?.contains("the environment variable HOME") == true, "\(String(describing: environment))")
        let status = await Self.hover(server, 4, 27)
        #expect(status?.hasPrefix("${_http.status}: number") == true, "\(String(describing: status))")
        // The loop before is closed: `$_` is the result of the command before it.
        let last = await Self.hover(server, 4, 35)
        #expect(last?.hasPrefix("$_: the result of 'search' (line 1)") == true, "\(String(describing: last))")
        let command = await Self.hover(server, 5, 2)
        #expect(command?.hasPrefix("search — ") == true, "the command's help is kept: \(String(describing: command))")
        await Client.close(home)
    }

    @Test func everyKeywordHasOneReferenceEntry() {
        let words = Parser.keywords + Expectation.Keyword.allCases.map(\.rawValue)
        #expect(Set(KeywordReference.all.map(\.keyword)) == Set(words))
        #expect(KeywordReference.all.count == words.count, "one entry each")
    }
}
