import BTSTerminal

extension ShellOutput {
    /// A command's result as a table on `sink`'s stderr (silenced by `--quiet`): a job finished
    /// before bts exits is summed up there, stdout keeping only the commands' own results.
    func showOnStandardError(_ finished: CommandOutput, sink: any OutputSink) {
        guard !settings.quiet else { return }
        let renderer = ResultRenderer(
            format: .table,
            colored: colored(.standardError),
            width: terminal.stderrIsTerminal ? terminal.columns : nil
        )
        let text = renderer.render(finished.value, view: prose(finished.view, of: finished.value, on: .standardError))
        if !text.isEmpty { sink.write(text, to: .standardError) }
    }
}
