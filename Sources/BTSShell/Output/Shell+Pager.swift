import BTSTerminal

extension Shell {
    /// Whether a command typed at the prompt has its output paged: stdout is a terminal, no
    /// redirection is already active, and `set pager` is on.
    func pages(_ context: SourceContext) -> Bool {
        context.interactive && settings.pager && state.redirect == nil && options.terminal.stdoutIsTerminal
            && sink is StandardOutputSink
    }

    /// Runs `body` with stdout held back (shaped for the terminal), then shows it (``Pager``).
    func withPager(_ body: () async throws -> Void) async throws {
        let capture = CapturingSink(base: sink)
        state.redirect = ActiveRedirect(sink: capture, format: output.format, keepsTerminal: true)
        defer { state.redirect = nil }
        var failure: (any Error)?
        do {
            try await body()
        } catch {
            failure = error
        }
        state.redirect = nil
        let text = String(decoding: capture.bytes, as: UTF8.self)
        let pager = Pager(environment: options.environment, sink: sink)
        if let failure = await pager.show(text, rows: Pager.terminalRows(), failure: failure, output: output) {
            throw failure
        }
    }
}
