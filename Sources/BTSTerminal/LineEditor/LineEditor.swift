import CEditLine
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Interactive line editing on a terminal, over libedit (BSD editline).
///
/// - UTF-8 editing (LC_CTYPE is switched to a UTF-8 locale if the environment's is not).
/// - emacs keys by default, vi with `setEditingMode(.vi)`; `~/.editrc` (or `$EDITRC`) is read,
///   lines prefixed `bts:` apply only to bts. TAB, Ctrl-C and Ctrl-R keep bts's bindings.
/// - Prompts may carry ANSI colour; a right prompt; a continuation prompt while the caller's
///   `isComplete` says the input is unfinished (the lines are joined with "\n").
/// - Ctrl-C at the prompt shows "^C", drops the line and returns `.interrupted`; Ctrl-D on an
///   empty line returns `.eof`. The terminal is never put in ISIG mode while editing, so Ctrl-C
///   reaches the editor as a key and no SIGINT is raised.
/// - `el_wgets` runs on a dedicated thread; cancelling the calling task ends the read.
/// - Terminal resizes (SIGWINCH) are picked up while reading and between reads.
///
/// Create one per process, only when stdin is a terminal (see `LineReaderFactory`).
package final class LineEditor: LineReader, @unchecked Sendable {
    // @unchecked: libedit state lives in `core`, used only on `worker`'s thread; the other
    // stored properties are immutable and themselves thread-safe.

    /// Key bindings family.
    package enum EditingMode: String, Sendable {
        case emacs
        case vi
    }

    /// Options for a `LineEditor`.
    package struct Configuration: Sendable {
        /// Name used for `~/.editrc` prefixes ("bts:bind -v").
        package var programName: String
        /// Decides whether the input typed so far is complete; nil: every line is complete.
        package var isComplete: InputCompletenessCheck?
        /// TAB completion; nil: TAB beeps.
        package var completionProvider: CompletionProvider?
        /// Where accepted lines are recorded; nil: in-memory history only (same filters).
        package var history: HistoryStore?
        /// In-memory history size.
        package var historySize: Int
        /// Starting key bindings (`~/.editrc` may change them).
        package var editingMode: EditingMode
        /// Read `~/.editrc` / `$EDITRC`.
        package var readsEditrc: Bool

        package init(
            programName: String = "bts",
            isComplete: InputCompletenessCheck? = nil,
            completionProvider: CompletionProvider? = nil,
            history: HistoryStore? = nil,
            historySize: Int = HistoryStore.defaultLimit,
            editingMode: EditingMode = .emacs,
            readsEditrc: Bool = true
        ) {
            self.programName = programName
            self.isComplete = isComplete
            self.completionProvider = completionProvider
            self.history = history
            self.historySize = historySize
            self.editingMode = editingMode
            self.readsEditrc = readsEditrc
        }
    }

    private let core: EditorCore
    private let worker: BlockingWorker
    private let wakeup: EditorWakeup
    private let configuration: Configuration
    private let inputFD: Int32
    private let savedTerminal: termios?
    /// The editor's subscription to SIGWINCH through the process's one signal hub (shared with the
    /// shell's `SignalWatcher`: a libdispatch signal source of its own would take the signal from
    /// the hub, and the shell's tables would keep the width they had at startup).
    private let resizeSubscription = UUID()

    /// Sets up libedit on `input`/`output` (stdin/stdout by default). Returns nil when libedit
    /// cannot initialise. Loads `configuration.history` into the in-memory history.
    package init?(
        configuration: Configuration = Configuration(),
        input: UnsafeMutablePointer<FILE>? = bts_stdin(),
        output: UnsafeMutablePointer<FILE>? = bts_stdout(),
        error: UnsafeMutablePointer<FILE>? = bts_stderr()
    ) {
        guard let input, let output, let error else { return nil }
        _ = bts_setlocale_ctype_utf8()
        let wakeup = EditorWakeup()
        guard
            let core = EditorCore(
                programName: configuration.programName,
                input: input,
                output: output,
                error: error,
                historySize: configuration.historySize,
                completionProvider: configuration.completionProvider,
                wakeup: wakeup
            )
        else { return nil }
        core.configure(initialMode: configuration.editingMode, sourceEditrc: configuration.readsEditrc)
        if let history = configuration.history {
            for entry in history.entries { core.enterHistory(entry) }
        }
        self.core = core
        self.wakeup = wakeup
        self.configuration = configuration
        self.inputFD = fileno(input)
        var attributes = termios()
        savedTerminal = tcgetattr(fileno(input), &attributes) == 0 ? attributes : nil
        worker = BlockingWorker(name: "bts.line-editor")
        SignalHub.shared.subscribe([.windowChanged], id: resizeSubscription) { [wakeup] _ in wakeup.post(.resize) }
    }

    deinit {
        SignalHub.shared.unsubscribe(.windowChanged, id: resizeSubscription)
        // No read can be running (it would keep `self` alive); `core`'s deinit calls el_end,
        // which restores the terminal.
        worker.shutdown()
    }

    // MARK: reading

    /// Reads one logical line. See `LineEditorResult`. Accepted lines go to the history.
    package func readLine(prompt: LinePrompt) async -> LineEditorResult {
        let core = self.core
        let worker = self.worker
        let result = await LogicalLineAssembler.read(wakeup: wakeup, isComplete: configuration.isComplete) {
            pending,
            sequence in
            let isContinuation = pending != nil
            let text = pending.map(prompt.continuation(after:)) ?? prompt.primary
            let right = isContinuation ? nil : prompt.right
            let liveRight = isContinuation ? nil : prompt.liveRight
            switch await worker.run({
                core.readPhysicalLine(prompt: text, right: right, liveRight: liveRight, sequence: sequence)
            }) {
            case .line(let line): return .line(line)
            case .eof: return .end
            case .interrupted: return .interrupted
            }
        }
        if case .line(let joined) = result { await record(joined) }
        return result
    }

    /// Ends a pending (or the next) `readLine` with `.interrupted`, from any thread.
    package func cancelRead() {
        wakeup.abortCurrentOrNext()
    }

    private func record(_ line: String) async {
        let accepted: Bool
        if let store = configuration.history {
            accepted = store.record(line)
        } else {
            accepted = HistoryFilter.builtIn.allows(line)
        }
        guard accepted else { return }
        let core = self.core
        await worker.run { core.enterHistory(line) }
    }

    // MARK: configuration

    /// Switches to emacs or vi key bindings (bts's TAB/Ctrl-C/Ctrl-R bindings are kept).
    package func setEditingMode(_ mode: EditingMode) async {
        let core = self.core
        await worker.run { core.setEditor(mode) }
    }

    /// Runs one editrc-style libedit command, e.g. "bind -v" or "bind ^W ed-delete-prev-word".
    /// Returns false when libedit rejects it.
    @discardableResult
    package func execute(editrcCommand: String) async -> Bool {
        let core = self.core
        return await worker.run { core.parse(editrcCommand) }
    }

    /// The current key-binding family.
    package var editingMode: EditingMode {
        get async {
            let core = self.core
            return await worker.run { core.mode }
        }
    }

    /// Number of entries in the in-memory history.
    package var historyCount: Int {
        get async {
            let core = self.core
            return await worker.run { core.historyCount }
        }
    }

    /// Tells the editor the terminal size changed (it also watches SIGWINCH itself).
    package func terminalResized() {
        wakeup.post(.resize)
    }

    /// Puts the terminal back in the mode it had when the editor was created. For signal and
    /// exit paths that cannot wait for the read to end; safe from any thread.
    package func restoreTerminal() {
        guard var attributes = savedTerminal else { return }
        _ = tcsetattr(inputFD, TCSADRAIN, &attributes)
    }
}
