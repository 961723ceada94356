import BTSLanguage
import BTSTerminal
import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell

/// Where a redirection sends stdout, as a value: the file opened (or refused) before the command
/// runs, its format, and what is handed over once the command ends; and the output shaped for it.
@Suite("redirect target")
struct RedirectTargetTests {
    static let scope = VariableScope(
        variables: ["name": .string("books")],
        lastResult: .null,
        lastStatus: 0,
        scriptName: "t.bts",
        scriptArguments: [],
        settingNames: []
    )

    static func redirection(_ kind: Redirection.Kind) -> Redirection {
        Redirection(kind: kind, range: SourceRange(offset: 0, length: 1))
    }

    static func word(_ text: String) -> Word {
        guard
            case .command(let command)? = Parser.parse(SourceFile(name: "t", text: "echo \(text)")).script
                .statements.first, let argument = command.arguments.first
        else { return Word(literal: text, range: SourceRange(offset: 0, length: 1), isQuoted: true) }
        return argument.word
    }

    @Test func aFileIsWrittenInTheFormatItsExtensionNames() async throws {
        let directory = try makeTempDirectory("redirect")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = try RedirectTarget(
            Self.redirection(.write(Self.word("$name.csv"))),
            option: nil,
            setting: nil,
            scope: Self.scope,
            resolvingPaths: { directory.appendingPathComponent($0) }
        )
        defer { target.close() }
        #expect(target.format == .csv)
        try await target.deliver(Array("a,b\n".utf8), after: nil, output: nil, errors: nil)
        let written = try String(contentsOf: directory.appendingPathComponent("books.csv"), encoding: .utf8)
        #expect(written == "a,b\n")
    }

    @Test func theCommandsOwnFormatWinsAndJSONIsTheDefault() throws {
        let option = try RedirectTarget(
            Self.redirection(.pipe("cat")),
            option: .ndjson,
            setting: .csv,
            scope: Self.scope,
            resolvingPaths: { URL(fileURLWithPath: $0) }
        )
        #expect(option.format == .ndjson)
        let plain = try RedirectTarget(
            Self.redirection(.pipe("cat")),
            option: nil,
            setting: nil,
            scope: Self.scope,
            resolvingPaths: { URL(fileURLWithPath: $0) }
        )
        #expect(plain.format == .json, "a pipeline is not a terminal")
    }

    @Test func anUnwritableFileIsRefusedBeforeTheCommandRuns() throws {
        let error = #expect(throws: ShellError.self) {
            try RedirectTarget(
                Self.redirection(.write(Self.word("out.json"))),
                option: nil,
                setting: nil,
                scope: Self.scope,
                resolvingPaths: { URL(fileURLWithPath: "/nonexistent-directory").appendingPathComponent($0) }
            )
        }
        #expect(error?.code == .writeFailed)
        #expect(error?.message.hasPrefix("cannot write 'out.json': ") == true)
    }

    @Test func theCommandsFailureComesAfterTheFileIsWritten() async throws {
        let directory = try makeTempDirectory("redirect")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = try RedirectTarget(
            Self.redirection(.append(Self.word("log.txt"))),
            option: nil,
            setting: nil,
            scope: Self.scope,
            resolvingPaths: { directory.appendingPathComponent($0) }
        )
        defer { target.close() }
        let failure = ShellError(.failure, "it failed")
        await #expect(throws: ShellError.self) {
            try await target.deliver(Array("kept\n".utf8), after: failure, output: nil, errors: nil)
        }
        let written = try String(contentsOf: directory.appendingPathComponent("log.txt"), encoding: .utf8)
        #expect(written == "kept\n")
    }

    @Test func redirectedOutputIsShapedForItsDestination() {
        let sink = BufferOutputSink()
        let capture = CapturingSink(base: sink)
        let terminal = TerminalInfo(stdoutIsTerminal: true, stderrIsTerminal: true, columns: 80)
        func shaped(_ redirect: ActiveRedirect?) -> ShellOutput {
            ShellOutput(
                sink: sink,
                redirect: redirect,
                terminal: terminal,
                noColor: false,
                environment: [:],
                settings: ShellSettings()
            )
        }
        let plain = shaped(nil)
        #expect(plain.terminal == terminal && plain.sink is BufferOutputSink)
        let file = shaped(ActiveRedirect(sink: capture, format: .csv))
        #expect(file.sink is CapturingSink)
        #expect(!file.terminal.stdoutIsTerminal && file.terminal.columns == nil)
        #expect(file.settings.output == .csv && file.format == .csv)
        let paged = shaped(ActiveRedirect(sink: capture, format: .table, keepsTerminal: true))
        #expect(paged.sink is CapturingSink && paged.terminal == terminal)
    }

    @Test func thePagerIsToldTheOutputIsUTF8UnlessTheUserSaidOtherwise() {
        #expect(Pager.command("less -FRX", environment: [:]) == "LESSCHARSET=utf-8; export LESSCHARSET; less -FRX")
        #expect(Pager.command("less", environment: ["LESSCHARSET": "latin1"]) == "less")
    }

    @Test func shortOutputIsPrintedWithoutThePager() async {
        let sink = BufferOutputSink()
        let pager = Pager(environment: ["PAGER": "false"], sink: sink)
        let output = ShellOutput(
            sink: sink,
            terminal: .pipes,
            noColor: true,
            environment: [:],
            settings: ShellSettings()
        )
        let failure = await pager.show("one\ntwo\n", rows: 24, failure: nil, output: output)
        #expect(failure == nil)
        #expect(sink.standardOutput == "one\ntwo\n")
        let notATerminal = await pager.show("x\n", rows: nil, failure: nil, output: output)
        #expect(notATerminal == nil)
        #expect(sink.standardOutput == "one\ntwo\nx\n")
    }
}
