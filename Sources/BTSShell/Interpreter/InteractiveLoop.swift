import BTSLanguage
import BTSTerminal
import Foundation

/// The task of the command running now, so a signal can cancel it.
final class RunningCommand: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Int32, Never>?
    /// The signal that ended the session (SIGTERM, SIGHUP), once one did.
    private var endingSignal: Int32?

    func set(_ task: Task<Int32, Never>?) {
        lock.lock()
        defer { lock.unlock() }
        self.task = task
    }

    /// Cancels the running command (Ctrl-C).
    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        task?.cancel()
    }

    /// Cancels it and remembers that the session should end (SIGTERM, SIGHUP).
    func end(signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if endingSignal == nil { endingSignal = signal }
        task?.cancel()
    }

    /// The signal that ended the session, if one did.
    var signal: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return endingSignal
    }

    var hasEnded: Bool { signal != nil }
}

extension Shell {
    /// The REPL (see ``InteractiveLoop``). Ends on EOF (Ctrl-D), `exit` or SIGTERM/SIGHUP; returns the exit status.
    public nonisolated func runInteractive(reader: any LineReader, signals: SignalWatcher? = nil,
                                           completion: CompletionContextStore? = nil) async -> Int32 {
        await InteractiveLoop(shell: self, reader: reader, signals: signals, completion: completion).run()
    }

    /// Runs the rc file, if there is one and the session loads it: its settings, variables and
    /// aliases stay for the session; its errors are reported like a script's (with its name).
    func runRCFile() async {
        guard options.loadsRCFile, options.terminal.stdinIsTerminal else { return }
        let url = options.paths.rcFile
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        _ = await runFile(url)
    }

    /// Records the status of a line run at the prompt (`$?`).
    func finishLine(status: Int32) {
        lastStatus = status
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
        await shell.welcome()
        let startup = Task { () -> Int32 in
            await shell.runRCFile()
            return 0
        }
        running.set(startup)
        _ = await startup.value
        running.set(nil)
        if let code = await shell.exitRequest { return code }
        while !running.hasEnded {
            // TAB sees this session's jobs, books and variables; the prompt shows the backend
            // and, when low, the tightest budget (fresh after each command).
            if let completion { await shell.updateCompletionContext(completion) }
            let result = await reader.readLine(prompt: await shell.interactivePrompt())
            if running.hasEnded { break }
            switch result {
            case .eof:
                return 0 // Ctrl-D on an empty line ends the session normally
            case .interrupted:
                continue
            case .line(let line):
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                let task = Task { await shell.run(line, name: "<stdin>", interactive: true) }
                running.set(task)
                let status = await task.value
                running.set(nil)
                await shell.finishLine(status: status)
                if let code = await shell.exitRequest { return code }
            }
        }
        if let signal = running.signal { return 128 + signal }
        return await shell.lastStatus
    }
}
