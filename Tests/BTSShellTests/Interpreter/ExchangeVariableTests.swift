import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@testable import BTSShell

/// `${_http.…}`: the last HTTP exchange as data, on the embedded backend and a live server; its
/// name reserved; TAB completing its fields; and the hint of an undefined variable.
@Suite struct ExchangeVariableTests {
    static let lookup = "search isbn 9780439023481"

    /// The same script on both backends: a miss, then the same lookup answered by the client's cache.
    static let script = """
        \(lookup)
        expect ${_http.status} == 200
        expect ${_http.method} == GET
        expect ${_http.cache} == miss
        expect ${_http.headers.content-type} contains json
        expect ${_http.durationMs} > 0
        expect ${_http.url} contains 9780439023481
        set first ${_http.durationMs}
        \(lookup)
        expect ${_http.cache} == hit
        expect ${_http.status} == 200
        echo ${_http.method} ${_http.status} ${_http.cache}
        """

    @Test func theEmbeddedBackendsExchangeIsReadable() async throws {
        try await withShell { harness in
            #expect(await harness.run(Self.script) == 0, "\(harness.err)")
            #expect(harness.out.hasSuffix("GET 200 hit\n"), "\(harness.out)")
        }
    }

    @Test func aLiveServersExchangeIsReadable() async throws {
        try await LiveServer.running { server in
            try await withShell(backend: BackendRequest(apiURL: "http://127.0.0.1:\(server.port)")) { harness in
                #expect(await harness.run(Self.script) == 0, "\(harness.err)")
                #expect(harness.out.hasSuffix("GET 200 hit\n"), "\(harness.out)")
                let exchange = try #require(await harness.shell.lastExchange)
                #expect(exchange.url.hasPrefix("http://127.0.0.1:\(server.port)/"))
            }
        }
    }

    /// `$_http` is the whole object; a command that made no request leaves it; an error answer
    /// replaces it.
    @Test func commandsWithoutRequestsLeaveItAndAnErrorAnswerReplacesIt() async throws {
        try await withShell(continueOnError: true) { harness in
            let status = await harness.run(
                """
                \(Self.lookup)
                set n 1
                echo $n
                expect ${_http.status} == 200
                echo "http=${_http}"
                similar 9780000000002
                expect ${_http.status} == 404
                expect ${_http.cache} == miss
                expect ${_http.url} contains /similar
                echo done
                """
            )
            #expect(status != 0)
            #expect(harness.err.contains("No similar books"), "\(harness.err)")  // and the script went on
            #expect(!harness.err.contains("expectation failed"), "\(harness.err)")
            #expect(harness.out.hasSuffix("done\n"), "\(harness.out)")
            let line = try #require(harness.out.split(separator: "\n").first { $0.hasPrefix("http=") })
            let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(line.dropFirst(5).utf8))
            #expect(
                Set(decoded.objectValue?.keys.map { $0 } ?? [])
                    == Set(VariableScope.Exchange.Field.allCases.map(\.rawValue))
            )
            #expect(decoded["status"] == .number(200))
        }
    }

    @Test func beforeAnyRequestItIsUndefined() async throws {
        try await withShell { harness in
            #expect(await harness.run("echo ${_http.status}") == 2)
            #expect(harness.err.contains("undefined variable '$_http'"), "\(harness.err)")
            #expect(harness.err.contains("it is set once a command has made a request"), "\(harness.err)")
        }
    }

    @Test func theNameIsReserved() async throws {
        try await withShell { harness in
            #expect(await harness.run("set _http 1") == 2)
            #expect(harness.err.contains("'_http' (the last HTTP exchange)"), "\(harness.err)")
            #expect(await harness.run("for _http in a b; echo $_http; end") == 2)
        }
        #expect(!Parser.isVariableName(VariableScope.Exchange.name))
        guard case .failure(let failure) = ScriptVariables.collect(files: [], assignments: ["_http=1"]) else {
            Issue.record("--var _http=1 was accepted")
            return
        }
        #expect(failure.message.contains("'_http' is reserved"), "\(failure.message)")
    }

    /// Header names hold `-`: a path key takes it after its first character.
    @Test func aHeaderNameWithADashIsOneKey() throws {
        guard
            case .success(.variable(let name, let path, _, _, _)) = ValuePathParser.parse("_http.headers.content-type")
        else {
            Issue.record("not parsed")
            return
        }
        #expect(name == "_http")
        #expect(path.components == [.key("headers"), .key("content-type")])
        guard case .failure = ValuePathParser.parse("_http.headers.-x") else {
            Issue.record("a key starting with '-' was accepted")
            return
        }
    }

    @Test func anUndefinedVariableSaysHowToSetIt() async throws {
        try await withShell { harness in
            #expect(await harness.run("echo $QUERY") == 2)
            #expect(harness.err.contains("undefined variable '$QUERY'"), "\(harness.err)")
            #expect(
                harness.err.contains("set it with 'set QUERY VALUE', or pass it to the run with '--var QUERY=VALUE'"),
                "\(harness.err)"
            )
            // A setting's name says it is a setting instead.
            #expect(await harness.run("echo $output") == 2)
            #expect(harness.err.contains("'output' is a setting"), "\(harness.err)")
            #expect(!harness.err.contains("set output VALUE"), "\(harness.err)")
        }
    }

    @Test func tabCompletesTheFields() {
        var context = CompletionContext()
        context.exchangeHeaders = ["content-type", "etag", "x-request-id"]
        let engine = CompletionEngine(registry: .standard, context: context)
        let fields = engine.answer(line: "expect ${_http.", cursorOffset: 15)
        #expect(
            fields.candidates
                == VariableScope.Exchange.Field.allCases.map { field in
                    field == .headers ? "${_http.headers." : "${_http.\(field.rawValue)}"
                }
        )
        #expect(fields.display == VariableScope.Exchange.Field.allCases.map(\.rawValue))
        #expect(fields.range == 7..<15)
        let status = engine.answer(line: "expect ${_http.st", cursorOffset: 17)
        #expect(status.candidates == ["${_http.status}"])
        #expect(status.appendSpace)
        let headers = engine.answer(line: "expect ${_http.h", cursorOffset: 16)
        #expect(headers.candidates == ["${_http.headers."])
        #expect(!headers.appendSpace)
        let named = engine.answer(line: "expect ${_http.headers.content-", cursorOffset: 31)
        #expect(named.candidates == ["${_http.headers.content-type}"])
        #expect(engine.answer(line: "expect ${_http.headers.", cursorOffset: 23).candidates.count == 3)
        // The name itself once there is an exchange: braced, the fields follow.
        var withExchange = context
        withExchange.variables = ["_", "_http", "book"]
        let names = CompletionEngine(registry: .standard, context: withExchange)
        #expect(names.answer(line: "echo ${_h", cursorOffset: 9).candidates == ["${_http."])
        #expect(names.answer(line: "echo $_h", cursorOffset: 8).candidates == ["$_http"])
        // Never offered as a name to set.
        #expect(!names.answer(line: "set ", cursorOffset: 4).candidates.contains("_http"))
    }

    /// The REPL's snapshot learns the last exchange's header names.
    @Test func theSessionsSnapshotHasTheHeaderNames() async throws {
        try await withShell { harness in
            let store = CompletionContextStore()
            await harness.shell.updateCompletionContext(store)
            #expect(!store.completionContext.variables.contains("_http"))
            #expect(await harness.run(Self.lookup) == 0, "\(harness.err)")
            await harness.shell.updateCompletionContext(store)
            let context = store.completionContext
            #expect(context.variables.contains("_http"))
            #expect(context.exchangeHeaders.contains("content-type"))
            #expect(context.exchangeHeaders == context.exchangeHeaders.sorted())
        }
    }

    @Test func helpNamesTheFields() async throws {
        try await withShell { harness in
            #expect(await harness.run("help set") == 0)
            for field in VariableScope.Exchange.Field.allCases {
                #expect(harness.out.contains("\(field.rawValue):"), "\(field.rawValue) in \(harness.out)")
            }
        }
    }
}
