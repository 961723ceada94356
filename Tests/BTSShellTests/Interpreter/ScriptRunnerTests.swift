import BTSLanguage
import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell

/// A session without I/O for ``ScriptRunner``: a command is recorded as its words, `set NAME VALUE`
/// sets a variable, `echo fail` fails (status 1), `echo stop` asks to exit with 7; conditions are
/// evaluated as `expect` evaluates them.
private actor RecordingHost: ScriptHost {
    var state = InterpreterState(positionalArguments: ["first"])
    var variables: [String: JSONValue] = [:]
    var lastStatus: Int32 = 0
    var settings = ShellSettings()
    let registry = CommandRegistry.standard
    var outputFailed = false
    var continueOnError = false
    /// The commands run, each as its interpolated words.
    var ran: [String] = []
    /// The errors reported, by code.
    var reported: [String] = []
    /// How many redirections were entered.
    var redirections = 0

    init(settings: ShellSettings = ShellSettings(), continueOnError: Bool = false) {
        self.settings = settings
        self.continueOnError = continueOnError
    }

    var scope: VariableScope {
        VariableScope(
            variables: variables,
            lastResult: .null,
            lastStatus: lastStatus,
            scriptName: "t.bts",
            scriptArguments: state.positionalArguments,
            settingNames: []
        )
    }

    var checker: ScriptChecker { ScriptChecker(registry: registry, aliases: Set(state.aliases.keys)) }

    var stopsOnError: Bool { settings.onError == .stop && !continueOnError }

    func execute(_ resolved: ResolvedCommand, _ context: SourceContext) async -> Int32 {
        let scope = self.scope
        let words = resolved.command.arguments.map { (try? scope.interpolate($0.word).get()) ?? "?" }
        ran.append(([resolved.command.nameText] + words).joined(separator: " "))
        var status: Int32 = 0
        if resolved.command.nameText == "set", words.count == 2 { variables[words[0]] = .string(words[1]) }
        if words == ["fail"] { status = 1 }
        if words == ["stop"] { state.exitRequest = 7 }
        lastStatus = status
        return status
    }

    func holds(_ condition: Command) throws(ShellError) -> Bool {
        switch Condition.parse(condition.arguments.map(\.word), what: condition.nameText) {
        case .success(let parsed):
            var outcomes: [Condition.Outcome] = []
            let scope = self.scope
            return try parsed.evaluate({ scope.value(of: $0) }, whole: condition.range, &outcomes)
        case .failure(let problem):
            throw ShellError(.usage, problem.message(in: nil), range: condition.range)
        }
    }

    func report(_ error: ShellError, in source: SourceFile?, interactive: Bool) {
        reported.append(error.code.rawValue)
    }

    func resolvePath(_ path: String) -> URL { URL(fileURLWithPath: "/nonexistent").appendingPathComponent(path) }

    func withRedirection(
        _ redirection: Redirection?,
        option: OutputFormat?,
        _ body: () async throws -> Void
    ) async throws {
        if redirection != nil { redirections += 1 }
        try await body()
    }

    /// Checks `text` and runs it; its status.
    func run(_ text: String) async -> Int32 {
        await ScriptRunner.runSources([(text, "t.bts")], directory: nil, interactive: false, firstLine: 1, on: self)
    }

    func define(_ name: String, _ body: String) { state.aliases[name] = body }
}

@Suite("script runner")
struct ScriptRunnerTests {
    @Test func commandsRunInOrderAndAFailureStopsTheRun() async {
        let host = RecordingHost()
        #expect(await host.run("echo a\necho fail\necho b") == 1)
        #expect(await host.ran == ["echo a", "echo fail"])
    }

    @Test func continuingPastFailuresRemembersTheFirstStatusThatWouldHaveStopped() async {
        let host = RecordingHost(continueOnError: true)
        #expect(await host.run("echo fail\necho b") == 1)
        #expect(await host.ran == ["echo fail", "echo b"])
        var settings = ShellSettings()
        settings.onError = .continue
        let continuing = RecordingHost(settings: settings)
        #expect(await continuing.run("echo fail\necho b") == 0, "like sh: the last command's status")
    }

    @Test func branchesLoopsBreakAndContinue() async {
        let host = RecordingHost()
        let script = """
            for w in words a b c d; if $w == b; continue; end; if $w == d; break; end; echo w=$w; end
            set n x
            if $n == y
              echo no
            elif $n == x
              echo yes
            else
              echo never
            end
            """
        #expect(await host.run(script) == 0)
        #expect(await host.ran == ["echo w=a", "echo w=c", "set n x", "echo yes"])
        #expect(await host.variables["w"] == .string("d"), "the loop variable keeps its last value")
    }

    @Test func aWhileLoopStopsAtTheLoopLimit() async {
        var settings = ShellSettings()
        settings.loopLimit = 3
        let host = RecordingHost(settings: settings)
        #expect(await host.run("while 1 == 1; echo round; end\necho after") == 1)
        #expect(await host.ran == ["echo round", "echo round", "echo round"])
        #expect(await host.reported == [ErrorCode.loopLimit.rawValue])
        #expect(await host.lastStatus == 1)
    }

    @Test func aWhileLoopEndsWhenItsConditionTurnsFalse() async {
        let host = RecordingHost()
        #expect(await host.run("set go yes\nwhile $go == yes; echo once; set go no; end\necho after") == 0)
        #expect(await host.ran == ["set go yes", "echo once", "set go no", "echo after"])
    }

    @Test func exitEndsEverythingWithItsStatus() async {
        let host = RecordingHost()
        #expect(await host.run("for w in words a b; echo stop; end\necho after") == 7)
        #expect(await host.ran == ["echo stop"])
    }

    @Test func aliasCallsRunTheirTextWithTheCallsWords() async {
        let host = RecordingHost()
        await host.define("greet", "echo hello $1")
        await host.define("say", "echo")
        #expect(await host.run("greet world > out.txt\nsay one two\necho $1") == 0)
        #expect(await host.ran == ["echo hello world", "echo one two", "echo first"])
        #expect(await host.redirections == 1)
        #expect(await host.state.sourceDepth == 0)
    }

    @Test func syntaxErrorsAreReportedBeforeAnythingRuns() async {
        let host = RecordingHost()
        #expect(await host.run("echo a\nif 1==2; echo b; end") == ExitStatus.usage.rawValue)
        #expect(await host.ran.isEmpty)
        #expect(await host.reported.count == 1)
    }
}

@Suite("run tally")
struct RunTallyTests {
    @Test func aFailureStopsTheRunWhenErrorsStopIt() {
        var tally = RunTally()
        #expect(tally.record(1, mustStop: false, stopsOnError: true, onError: .stop) == .stop)
        #expect(tally.status(after: .stop) == 1)
    }

    @Test func aFailurePassedOverIsRememberedOnlyWhenErrorsWouldStop() {
        var tally = RunTally()
        #expect(tally.record(1, mustStop: false, stopsOnError: false, onError: .stop) == nil)
        #expect(tally.record(0, mustStop: false, stopsOnError: false, onError: .stop) == nil)
        #expect(tally.status(after: .next) == 1)
        var continuing = RunTally()
        #expect(continuing.record(1, mustStop: false, stopsOnError: false, onError: .continue) == nil)
        #expect(continuing.record(0, mustStop: false, stopsOnError: false, onError: .continue) == nil)
        #expect(continuing.status(after: .next) == 0)
    }

    @Test func anInterruptionOrAnExitAlwaysStops() {
        var tally = RunTally()
        let interrupted = ExitStatus.interrupted.rawValue
        #expect(tally.record(interrupted, mustStop: false, stopsOnError: false, onError: .continue) == .stop)
        var exiting = RunTally()
        #expect(exiting.record(0, mustStop: true, stopsOnError: false, onError: .continue) == .stop)
        #expect(exiting.status(after: .stop) == 0)
    }
}

@Suite("alias call")
struct AliasCallTests {
    static let scope = VariableScope(
        variables: ["q": .string("two words")],
        lastResult: .null,
        lastStatus: 0,
        scriptName: "t.bts",
        scriptArguments: [],
        settingNames: []
    )

    static func arguments(_ line: String) -> [Argument] {
        guard case .command(let command)? = Parser.parse(SourceFile(name: "t", text: line)).script.statements.first
        else { return [] }
        return command.arguments
    }

    @Test func wordsAreAppendedAsWrittenWhenTheTextReadsNone() throws {
        let call = try AliasCall(
            body: "search title",
            arguments: Self.arguments("x --limit 1 \"a b\" $q"),
            scope: Self.scope
        )
        #expect(call.positionalArguments == nil)
        // A bare option stays an option; a quoted word, or a variable's value, stays one word.
        #expect(call.text == "search title --limit 1 'a b' 'two words'")
    }

    @Test func wordsBecomePositionalArgumentsWhenTheTextReadsThem() throws {
        let call = try AliasCall(body: "echo $1", arguments: Self.arguments("x a $q"), scope: Self.scope)
        #expect(call.text == "echo $1")
        #expect(call.positionalArguments == ["a", "two words"])
    }

    @Test func anUndefinedVariableIsTheCallsError() {
        #expect(throws: ShellError.self) {
            try AliasCall(body: "echo", arguments: Self.arguments("x $missing"), scope: Self.scope)
        }
    }
}
