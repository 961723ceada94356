import BTSLanguage
import BTSTerminal
import BTSTerminalText
import BooksTrackContract

/// The shell's output, as the settings of the moment shape it: data on stdout in the chosen
/// format, human messages on stderr (silenced by `--quiet`), colour only where allowed.
struct ShellOutput: Sendable {
    var sink: any OutputSink
    var terminal: TerminalInfo
    /// `--no-color`.
    var noColor: Bool
    var environment: [String: String]
    var settings: ShellSettings

    /// Whether ANSI styles may go to `stream`: only on a terminal, never with `--no-color`,
    /// `NO_COLOR` or `TERM=dumb` (unless `set color on`) or `set color off`.
    func colored(_ stream: OutputStream) -> Bool {
        let isTerminal = stream == .standardOutput ? terminal.stdoutIsTerminal : terminal.stderrIsTerminal
        guard isTerminal else { return false }
        switch settings.color {
        case .off: return false
        case .on: return true
        case .auto: return ShellSettings.autoColor(noColor: noColor, environment: environment)
        }
    }

    /// The output format in effect (``OutputFormat/forDestination(isTerminal:chosen:)``): the
    /// setting, else a table on a terminal and JSON anywhere else.
    var format: OutputFormat {
        .forDestination(isTerminal: terminal.stdoutIsTerminal, chosen: settings.output)
    }

    /// Data on stdout.
    func out(_ text: String) {
        guard !text.isEmpty else { return }
        sink.write(text, to: .standardOutput)
    }

    /// The user's own words on stdout (`echo`): into a pipe or a file they are data and go as they
    /// are; on a terminal they are neutralised as every string from outside is (`TerminalText`: a
    /// value from the environment or a file cannot drive the terminal), their line breaks kept.
    func words(_ text: String) {
        out(terminal.stdoutIsTerminal ? TerminalText.sanitize(text) : text)
    }

    /// A human message on stderr (silenced by `--quiet`). Every note, dim note and warning is
    /// neutralised by one rule (`TerminalText`): a server's string inside it (a job id, a corrected
    /// query, a reason) can neither drive the terminal nor start a line of its own; the message's
    /// own line breaks stay.
    func note(_ text: String) {
        line(TerminalText.sanitize(text))
    }

    /// A dim human message on stderr (silenced by `--quiet`).
    func dimNote(_ text: String) {
        line(ANSIStyle.dim.apply(TerminalText.sanitize(text), enabled: colored(.standardError)))
    }

    /// A warning on stderr (silenced by `--quiet`): one line (wrapped at spaces on a terminal).
    func warn(_ text: String) {
        line(
            ANSIStyle.yellow.apply("warning:", enabled: colored(.standardError)) + " "
                + TerminalText.sanitize(text, lines: .flatten)
        )
    }

    /// Writes an already neutralised (and styled) message as a line on stderr, unless `--quiet`:
    /// the one way notes, dim notes and warnings go out. On a terminal each line is wrapped at
    /// spaces to its width (``ProseWrap``), never mid-word; into a pipe or a file it goes as it is.
    private func line(_ text: String) {
        guard !settings.quiet else { return }
        var text = text
        if terminal.stderrIsTerminal, let columns = terminal.columns { text = ProseWrap.wrap(text, width: columns) }
        sink.write(text.hasSuffix("\n") ? text : text + "\n", to: .standardError)
    }

    /// Renders an error on stderr (errors are never silenced).
    func report(_ error: ShellError, in source: SourceFile?, interactive: Bool) {
        let reporter = ErrorReporter(
            colored: colored(.standardError),
            showsLocation: !interactive,
            width: terminal.stderrIsTerminal ? terminal.columns : nil
        )
        sink.write(reporter.render(error, in: source), to: .standardError)
    }

    /// Prints a result in `format` (default: the format in effect). A table on a terminal has its
    /// prose (a summary such as import's, a note) wrapped at spaces to the width (``proseWrapped(_:of:width:)``).
    func emit(_ value: JSONValue, _ view: ResultView, format: OutputFormat? = nil) {
        let format = format ?? self.format
        let renderer = ResultRenderer(
            format: format,
            colored: colored(.standardOutput),
            width: terminal.columns,
            prettyJSON: terminal.stdoutIsTerminal,
            expanded: settings.expanded
        )
        out(renderer.render(value, view: format == .table ? prose(view, of: value, on: .standardOutput) : view))
    }

    /// `view` as a table shows it on `stream`: on a terminal its prose wrapped to the width
    /// (``proseWrapped(_:of:width:)``), elsewhere as it is.
    func prose(_ view: ResultView, of value: JSONValue, on stream: OutputStream) -> ResultView {
        let isTerminal = stream == .standardOutput ? terminal.stdoutIsTerminal : terminal.stderrIsTerminal
        guard isTerminal, let columns = terminal.columns else { return view }
        return Self.proseWrapped(view, of: value, width: columns)
    }

    /// `view` with its free text neutralised (as the table renders it) and wrapped at spaces to
    /// `width`, never mid-word. The value shown as indented JSON (`api`'s answer) is data, not
    /// prose, and stays as it is; tables, records and charts are fitted to the width already.
    static func proseWrapped(_ view: ResultView, of value: JSONValue, width: Int) -> ResultView {
        switch view {
        case .text(let text):
            if text.first == "{" || text.first == "[", text == value.prettyJSON { return view }
            return .text(ProseWrap.wrap(TerminalText.sanitize(text), width: width))
        case .sections(let views):
            return .sections(views.map { proseWrapped($0, of: value, width: width) })
        default:
            return view
        }
    }

    /// Whether progress (bars, spinners, retry lines, countdowns) is shown on stderr: never with
    /// `--quiet` or `set progress off`; on a terminal by default; elsewhere with `set progress on`.
    /// stdout carries results only.
    var showsProgress: Bool {
        guard !settings.quiet else { return false }
        switch settings.progress {
        case .off: return false
        case .on: return true
        case .auto: return terminal.stderrIsTerminal
        }
    }

    /// Whether progress is redrawn in place (a terminal's stderr) rather than written as lines.
    var redrawsProgress: Bool { showsProgress && terminal.stderrIsTerminal }

    /// One progress event as a JSON line on stderr (`set progress on` without a terminal).
    func progressEvent(_ event: JSONValue) {
        guard showsProgress else { return }
        sink.write(event.compactJSON + "\n", to: .standardError)
    }

    /// Redraws a status line in place on stderr (progress bars, countdowns), neutralised as a note
    /// and on one line (a reason it carries may be a server's words).
    func redraw(_ text: String) {
        sink.write("\r" + ANSIStyle.eraseToEndOfLine + TerminalText.sanitize(text, lines: .flatten), to: .standardError)
    }
}
