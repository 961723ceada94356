import BTSLanguage
import BTSTerminal
import Foundation
import Synchronization

/// The task of the command running now, so a signal can cancel it.
final class RunningCommand: Sendable {
    private struct State {
        var task: Task<Int32, Never>?
        /// The signal that ended the session (SIGTERM, SIGHUP), once one did.
        var endingSignal: Int32?
    }

    private let state = Mutex(State())

    func set(_ task: Task<Int32, Never>?) { state.withLock { $0.task = task } }

    /// Cancels the running command (Ctrl-C).
    func cancel() { state.withLock { $0.task?.cancel() } }

    /// Cancels it and remembers that the session should end (SIGTERM, SIGHUP).
    func end(signal: Int32) {
        state.withLock { state in
            if state.endingSignal == nil { state.endingSignal = signal }
            state.task?.cancel()
        }
    }

    /// The signal that ended the session, if one did.
    var signal: Int32? { state.withLock { $0.endingSignal } }

    var hasEnded: Bool { signal != nil }
}

extension Shell {
    /// The REPL (see ``InteractiveLoop``). Ends on EOF (Ctrl-D), `exit` or SIGTERM/SIGHUP; returns the exit status.
    package nonisolated func runInteractive(
        reader: any LineReader,
        signals: SignalWatcher? = nil,
        completion: CompletionContextStore? = nil
    ) async -> Int32 {
        await InteractiveLoop(shell: self, reader: reader, signals: signals, completion: completion).run()
    }

    /// Runs the rc file, if there is one and the session loads it: its settings, variables and
    /// aliases stay for the session. Like psql's `.psqlrc`, a bad line does not skip the rest:
    /// each logical line (continuation lines and blocks joined) is checked and run on its own,
    /// its error reported with the file's name and line, and the next line runs. A file whose
    /// syntax is broken (an unclosed quote or block, blocks nested too deep) has no lines to go on
    /// with: its errors are reported together and nothing in it runs.
    func runRCFile() async {
        guard options.loadsRCFile, options.terminal.stdinIsTerminal else { return }
        let url = options.paths.rcFile
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let text: String
        do throws(ScriptFile.Failure) {
            text = try ScriptFile.read(url.path)
        } catch {
            report(ShellError(.usage, error.sentence(url.path)), in: nil, interactive: false)
            return
        }
        guard !Parser.parse(SourceFile(name: url.path, text: text)).hasErrors else {
            _ = await runSources([(text, url.path)], directory: url.deletingLastPathComponent())
            return
        }
        for (line, chunk) in ScriptFile.logicalLines(text) where !chunk.allSatisfy(\.isWhitespace) {
            _ = await runSources([(chunk, url.path)], directory: url.deletingLastPathComponent(), firstLine: line)
            if state.exitRequest != nil || Task.isCancelled { return }
        }
    }

    /// Records the status of a line run at the prompt (`$?`).
    func finishLine(status: Int32) {
        lastStatus = status
    }

    /// Refuses a line at the prompt that is not UTF-8: its place said, `$?` set to 2.
    func refuse(_ line: UndecodableLine) {
        report(.notUTF8(line, in: "<stdin>"), in: nil, interactive: true)
        finishLine(status: ExitStatus.usage.rawValue)
    }
}

/// The REPL loop: reads logical lines from `reader` (libedit on a terminal, plain otherwise),
/// runs each as its own small script in `shell`. Ctrl-C (delivered by `signals` while a command
/// runs) cancels that command and returns to the prompt; SIGTERM and SIGHUP end the session.
struct InteractiveLoop {
    let shell: Shell
    let reader: any LineReader
    let signals: SignalWatcher?
    let completion: CompletionContextStore?

    /// psql's quit, taken at the prompt as Ctrl-D: status 0 (ExitCommand's help says so).
    static let psqlQuit = "\\q"

    func run() async -> Int32 {
        let running = RunningCommand()
        let reader = self.reader
        let shell = self.shell
        let listener: Task<Void, Never>? = signals.map { watcher in
            Task {
                for await event in watcher.events {
                    switch event {
                    case .interrupt: running.cancel()
                    case .terminate, .hangup:
                        // End the session even while it waits at the prompt: the pending read
                        // is cancelled, the loop sees `hasEnded` and returns 128+N.
                        running.end(signal: event == .terminate ? SIGTERM : SIGHUP)
                        reader.cancelRead()
                    case .windowChanged: await shell.terminalResized()
                    }
                }
            }
        }
        defer { listener?.cancel() }
        let status = await session(running)
        if running.hasEnded { return status }
        // The embedded backend's jobs end with this process: finished first (Ctrl-C stops waiting).
        let finishing = Task { await shell.finishEmbeddedJobs(after: status) }
        running.set(finishing)
        let finished = await finishing.value
        running.set(nil)
        return finished
    }

    /// The prompt's loop, until Ctrl-D, `\q`, `exit` or a signal that ends the session; its status.
    private func session(_ running: RunningCommand) async -> Int32 {
        let reader = self.reader
        let shell = self.shell
        await shell.welcome()
        let startup = Task { () -> Int32 in
            await shell.runRCFile()
            return 0
        }
        running.set(startup)
        _ = await startup.value
        running.set(nil)
        if let code = await shell.state.exitRequest { return code }
        while !running.hasEnded {
            // TAB sees this session's jobs, books and variables; the prompt shows the backend
            // and, when low, the tightest budget (fresh after each command).
            if let completion { await shell.updateCompletionContext(completion) }
            let result = await reader.readLine(prompt: await shell.interactivePrompt())
            if running.hasEnded { break }
            switch result {
            case .eof:
                return 0  // Ctrl-D on an empty line ends the session normally
            case .interrupted:
                continue
            case .notUTF8(let line):
                // Only a plain reader (no line editor) finds one: refused, and the prompt goes on.
                await shell.refuse(line)
            case .line(let line):
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { continue }
                // psql's `\q` ends the session as Ctrl-D does (the lexer would read it as the word `q`).
                if trimmed == Self.psqlQuit { return 0 }
                let task = Task { await shell.run(line, name: "<stdin>", interactive: true) }
                running.set(task)
                let status = await task.value
                running.set(nil)
                await shell.finishLine(status: status)
                if let code = await shell.state.exitRequest { return code }
            }
        }
        if let signal = running.signal { return 128 + signal }
        return await shell.lastStatus
    }
}
