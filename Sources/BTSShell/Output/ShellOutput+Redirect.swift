import BTSTerminal

extension ShellOutput {
    /// The output a session's settings shape: on `sink`, or, while a redirection is active, into
    /// its buffer, in its format, without colour or a width limit (what the pager holds back keeps
    /// the terminal's shape).
    init(
        sink: any OutputSink,
        redirect: ActiveRedirect?,
        terminal: TerminalInfo,
        noColor: Bool,
        environment: [String: String],
        settings: ShellSettings
    ) {
        guard let redirect else {
            self.init(sink: sink, terminal: terminal, noColor: noColor, environment: environment, settings: settings)
            return
        }
        guard !redirect.keepsTerminal else {
            self.init(
                sink: redirect.sink,
                terminal: terminal,
                noColor: noColor,
                environment: environment,
                settings: settings
            )
            return
        }
        var shaped = settings
        shaped.output = redirect.format
        var plain = terminal
        plain.stdoutIsTerminal = false
        plain.columns = nil
        self.init(sink: redirect.sink, terminal: plain, noColor: noColor, environment: environment, settings: shaped)
    }
}
