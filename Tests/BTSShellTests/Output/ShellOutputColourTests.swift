import BTSTerminal
import Testing

@testable import BTSShell

/// When output is coloured: on a terminal only, and not for `--no-color`, `NO_COLOR` or `TERM=dumb`
/// (a dumb terminal got colour escapes) unless `set color on`.
@Suite("output colour")
struct ShellOutputColourTests {
    static func output(
        _ environment: [String: String],
        noColor: Bool = false,
        color: ShellSettings.Toggle = .auto
    ) -> ShellOutput {
        var settings = ShellSettings()
        settings.color = color
        return ShellOutput(
            sink: BufferOutputSink(),
            terminal: TerminalInfo(stdoutIsTerminal: true, stderrIsTerminal: true),
            noColor: noColor,
            environment: environment,
            settings: settings
        )
    }

    @Test func colourOnlyWhereTheTerminalTakesIt() {
        #expect(Self.output(["TERM": "xterm-256color"]).colored(.standardOutput))
        #expect(!Self.output(["TERM": "dumb"]).colored(.standardOutput))
        #expect(!Self.output(["TERM": "dumb"]).colored(.standardError))
        #expect(!Self.output(["TERM": "xterm", "NO_COLOR": "1"]).colored(.standardError))
        #expect(!Self.output(["TERM": "xterm"], noColor: true).colored(.standardError))
        #expect(Self.output(["TERM": "dumb"], color: .on).colored(.standardOutput), "'set color on' still wins")
    }
}
