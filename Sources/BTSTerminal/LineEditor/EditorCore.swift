import CEditLine
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// libedit's state for one `LineEditor`. Confined to the editor's worker thread after init
/// (every use goes through `BlockingWorker`), hence `@unchecked Sendable`.
final class EditorCore: @unchecked Sendable {
    /// Why the running `el_wgets` ended early.
    enum EndReason { case interrupt, abort }

    /// One physical line read by `el_wgets`.
    enum PhysicalLine: Sendable, Equatable {
        case line(String)
        case eof, interrupted
    }

    let el: OpaquePointer
    let history: OpaquePointer
    let inputFD: Int32
    let output: UnsafeMutablePointer<FILE>
    let wakeup: EditorWakeup
    let completionProvider: CompletionProvider?
    /// Keys synthesised by the getc function (private code points bound to bts functions).
    static let abortKey: wchar_t = 0x91
    static let redisplayKey: wchar_t = 0x92

    private var promptBuffer: UnsafeMutablePointer<wchar_t>
    private var rightPromptBuffer: UnsafeMutablePointer<wchar_t>
    /// The right prompt's text now, and how to recompute it while a read waits.
    private var rightText: String?
    private(set) var liveRight: (@Sendable (Date) -> String?)?
    private(set) var promptText = ""
    private var functionNames: [UnsafeMutablePointer<wchar_t>] = []
    var readSequence: UInt64 = 0
    var endReason: EndReason?
    /// The current key-binding family.
    private(set) var mode: LineEditor.EditingMode = .emacs
    /// The terminal's modes before editing (restored while `$EDITOR` runs).
    var cookedTerminal: termios?

    init?(
        programName: String,
        input: UnsafeMutablePointer<FILE>,
        output: UnsafeMutablePointer<FILE>,
        error: UnsafeMutablePointer<FILE>,
        historySize: Int,
        completionProvider: CompletionProvider?,
        wakeup: EditorWakeup
    ) {
        guard let el = el_init(programName, input, output, error) else { return nil }
        guard let history = history_winit() else {
            el_end(el)
            return nil
        }
        self.el = el
        self.history = history
        self.inputFD = fileno(input)
        self.output = output
        self.wakeup = wakeup
        self.completionProvider = completionProvider
        promptBuffer = EditorCore.allocateWide("")
        rightPromptBuffer = EditorCore.allocateWide("")
        _ = bts_history_setsize(history, Int32(clamping: max(historySize, 1)))
        _ = bts_history_setunique(history, 1)
        _ = bts_el_set_hist(el, history)
    }

    /// Wires callbacks and bindings. Separate from init because `self` must be complete.
    func configure(initialMode: LineEditor.EditingMode, sourceEditrc: Bool) {
        guard functionNames.isEmpty else { return }
        var attributes = termios()
        if tcgetattr(inputFD, &attributes) == 0 { cookedTerminal = attributes }
        _ = bts_el_set_clientdata(el, Unmanaged.passUnretained(self).toOpaque())
        _ = bts_el_set_getcfn(el, editorReadCharacter)
        let marker = wchar_t(bitPattern: PromptEscapes.marker.value)
        _ = bts_el_set_prompt_esc(el, editorPrompt, marker)
        _ = bts_el_set_rprompt_esc(el, editorRightPrompt, marker)
        _ = bts_el_set_signal(el, 0)
        // Ctrl-C must reach the editor as a key (bound below), not as SIGINT.
        _ = withWideString("-isig") { bts_el_setty_edit(el, $0) }
        addFunction("bts-complete", "bts: complete the word at the cursor", editorComplete)
        addFunction("bts-interrupt", "bts: discard the line (Ctrl-C)", editorInterrupt)
        addFunction("bts-abort", "bts: end the read (cancellation)", editorAbort)
        addFunction("bts-redisplay", "bts: redraw after a resize", editorRedisplay)
        addFunction(
            "bts-edit-externally",
            "bts: edit the line in $EDITOR, then run it (Ctrl-X Ctrl-E)",
            editorEditExternally
        )
        setEditor(initialMode)
        if sourceEditrc {
            _ = el_source(el, nil)
            mode = currentEditor()
            applyBindings()
        }
    }

    deinit {
        el_end(el)
        history_wend(history)
        promptBuffer.deallocate()
        rightPromptBuffer.deallocate()
        for name in functionNames { name.deallocate() }
    }

    // MARK: configuration

    /// Registers `fn` under `name`. libedit keeps the name and help pointers (no copy), so
    /// they live as long as the core.
    private func addFunction(_ name: String, _ help: String, _ fn: bts_el_func_t) {
        let wname = Self.allocateWide(name)
        let whelp = Self.allocateWide(help)
        functionNames.append(contentsOf: [wname, whelp])
        _ = bts_el_addfn(el, wname, whelp, fn)
    }

    func setEditor(_ mode: LineEditor.EditingMode) {
        _ = withWideString(mode.rawValue) { bts_el_set_editor(el, $0) }
        self.mode = mode
        applyBindings()
    }

    private func currentEditor() -> LineEditor.EditingMode {
        guard let pointer = bts_el_get_editor(el) else { return mode }
        return LineEditor.EditingMode(rawValue: WideString.decode(pointer)) ?? mode
    }

    /// Our bindings; re-applied after anything that resets the key maps (`bind -v`, EL_EDITOR).
    func applyBindings() {
        let both: [(String, String)] = [
            ("^C", "bts-interrupt"),
            ("^R", "em-inc-search-prev"),
            (String(UnicodeScalar(UInt8(Self.abortKey))), "bts-abort"),
            (String(UnicodeScalar(UInt8(Self.redisplayKey))), "bts-redisplay"),
        ]
        bind("^I", "bts-complete", alternate: false)
        bind("^X^E", "bts-edit-externally", alternate: false)
        for (key, function) in both {
            bind(key, function, alternate: false)
            bind(key, function, alternate: true)
        }
    }

    private func bind(_ key: String, _ function: String, alternate: Bool) {
        withWideString(key) { wkey in
            withWideString(function) { wfn in
                _ = alternate ? bts_el_bind_alternate(el, wkey, wfn) : bts_el_bind(el, wkey, wfn)
            }
        }
    }

    /// Runs one editrc-style command ("bind -v", "bind ^W ed-delete-prev-word", ...).
    func parse(_ command: String) -> Bool {
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty else { return false }
        let buffers = words.map(WideString.make)
        var pointers: [UnsafePointer<wchar_t>?] = []
        var storage: [UnsafeMutablePointer<wchar_t>] = []
        for buffer in buffers {
            let copy = UnsafeMutablePointer<wchar_t>.allocate(capacity: buffer.count)
            copy.initialize(from: buffer, count: buffer.count)
            storage.append(copy)
            pointers.append(UnsafePointer(copy))
        }
        defer { for copy in storage { copy.deallocate() } }
        let argc = Int32(pointers.count)
        pointers.append(nil)  // libedit's builtins read argv up to a NULL terminator
        let status = pointers.withUnsafeMutableBufferPointer { argv in
            el_wparse(el, argc, argv.baseAddress)
        }
        mode = currentEditor()
        applyBindings()
        return status == 0
    }

    // MARK: prompts

    private static func allocateWide(_ text: String) -> UnsafeMutablePointer<wchar_t> {
        let units = WideString.make(text)
        let pointer = UnsafeMutablePointer<wchar_t>.allocate(capacity: units.count)
        pointer.initialize(from: units, count: units.count)
        return pointer
    }

    func setPrompts(primary: String, right: String?) {
        promptText = primary
        promptBuffer.deallocate()
        promptBuffer = Self.allocateWide(PromptEscapes.bracket(primary))
        rightPromptBuffer.deallocate()
        rightPromptBuffer = Self.allocateWide(PromptEscapes.bracket(right ?? ""))
    }

    var promptPointer: UnsafeMutablePointer<wchar_t> { promptBuffer }
    var rightPromptPointer: UnsafeMutablePointer<wchar_t> { rightPromptBuffer }

    /// Recomputes the right prompt (worker thread, inside `el_wgets`); true when it changed and the
    /// line must be redrawn.
    func refreshRightPrompt(now: Date = Date()) -> Bool {
        guard let liveRight else { return false }
        let text = liveRight(now)
        guard text != rightText else { return false }
        rightText = text
        rightPromptBuffer.deallocate()
        rightPromptBuffer = Self.allocateWide(PromptEscapes.bracket(text ?? ""))
        return true
    }

    // MARK: reading

    /// Reads one physical line with `el_wgets` (blocks the worker thread).
    func readPhysicalLine(
        prompt: String,
        right: String?,
        liveRight: (@Sendable (Date) -> String?)? = nil,
        sequence: UInt64
    ) -> PhysicalLine {
        setPrompts(primary: prompt, right: right)
        rightText = right
        self.liveRight = liveRight
        defer { self.liveRight = nil }
        readSequence = sequence
        endReason = nil
        if wakeup.isAborted(sequence: sequence) { return .interrupted }
        if wakeup.takeResize() { el_resize(el) }
        var count: Int32 = 0
        let result = el_wgets(el, &count)
        defer { endReason = nil }
        if endReason != nil { return .interrupted }
        guard let result, count > 0 else {
            write("\n")  // libedit echoed "^D"; leave the cursor on a fresh line
            return .eof
        }
        var text = WideString.decode(result, count: Int(count))
        if text.hasSuffix("\n") { text.removeLast() }
        return .line(text)
    }

    /// Adds `line` to libedit's in-memory history (Up/Down, Ctrl-R).
    func enterHistory(_ line: String) {
        _ = withWideString(line) { bts_history_enter(history, $0) }
    }

    var historyCount: Int { Int(bts_history_count(history)) }

    /// Terminal width in columns as libedit knows it (80 if unknown).
    var columns: Int {
        let columns = Int(bts_el_columns(el))
        return columns > 0 ? columns : 80
    }

    /// Writes `text` to the editor's output stream and flushes it.
    func write(_ text: String) {
        fputs(text, output)
        fflush(output)
    }
}
