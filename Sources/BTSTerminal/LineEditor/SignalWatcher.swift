import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns process signals into an `AsyncStream` of events. While a watcher is active its signals
/// do not kill the process (Ctrl-C or SIGTERM never end it by themselves; the REPL decides).
/// `stop()` (or deinit) ends the subscription; a SIGINT/SIGTERM/SIGHUP arriving while nobody
/// watches then takes its default action. See `SignalHub` for the process-wide plumbing.
///
/// How the REPL uses it:
/// ```swift
/// let signals = SignalWatcher()            // before starting the read loop
/// Task {
///     for await event in signals.events {
///         switch event {
///         case .interrupt: currentCommand?.cancel()        // Ctrl-C while a command runs
///         case .terminate, .hangup:                        // leave cleanly: history is already on disk
///             editor.cancelRead(); editor.restoreTerminal(); exit(event.exitStatus)
///         case .windowChanged: editor.terminalResized()    // optional: the editor watches SIGWINCH too
///         }
///     }
/// }
/// ```
/// While the editor reads a line, Ctrl-C is a key for the editor (no SIGINT is raised); it only
/// arrives here while a command runs (the terminal is in its normal mode then).
package final class SignalWatcher: Sendable {
    /// A received signal.
    package enum Event: Sendable, Equatable {
        case interrupt  // SIGINT
        case terminate  // SIGTERM
        case hangup  // SIGHUP
        case windowChanged  // SIGWINCH

        /// The conventional exit status for a shell ended by this signal (128 + number).
        package var exitStatus: Int32 {
            128 + signalNumber
        }

        /// The signal number.
        package var signalNumber: Int32 {
            switch self {
            case .interrupt: SIGINT
            case .terminate: SIGTERM
            case .hangup: SIGHUP
            case .windowChanged: SIGWINCH
            }
        }
    }

    /// Events in arrival order. Single consumer; buffers the newest 64 events.
    package let events: AsyncStream<Event>
    private let state: SignalWatcherState

    /// Starts watching `watched` (default: SIGINT, SIGTERM, SIGHUP, SIGWINCH). `onEvent`, when
    /// given, hears each event first, at once, on the hub's own thread: for a reaction that must
    /// not wait for a thread of Swift's pool, which busy work may hold (it must not block).
    package init(
        _ watched: [Event] = [.interrupt, .terminate, .hangup, .windowChanged],
        onEvent: (@Sendable (Event) -> Void)? = nil
    ) {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(64))
        events = stream
        state = SignalWatcherState(watched: watched, continuation: continuation, onEvent: onEvent)
    }

    deinit { state.stop() }

    /// Stops watching: cancels the sources, restores the previous signal actions, ends `events`.
    package func stop() { state.stop() }

    /// True once at least one event was delivered (for tests).
    var hasDelivered: Bool { state.hasDelivered }

    /// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, so that threads it creates
    /// afterwards inherit the block. Call it first thing on the main thread of a process that will
    /// watch these signals: until a watcher installs the hub's handler, such a signal waits,
    /// pending, instead of ending the process, and is then delivered to the first watcher. (Once
    /// libdispatch parks the main thread in `sigsuspend`, that thread accepts every signal and
    /// runs the hub's handler.) Child processes are spawned with an empty mask (Foundation's
    /// `Process`, `ForegroundProcess`).
    package static func blockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}

/// One subscription of a `SignalWatcher` to the hub.
private final class SignalWatcherState: Sendable {
    private struct State {
        var active = true
        var delivered = false
    }

    private let state = Mutex(State())
    private let id = UUID()
    private let watched: [SignalWatcher.Event]
    private let continuation: AsyncStream<SignalWatcher.Event>.Continuation
    private let onEvent: (@Sendable (SignalWatcher.Event) -> Void)?

    init(
        watched: [SignalWatcher.Event],
        continuation: AsyncStream<SignalWatcher.Event>.Continuation,
        onEvent: (@Sendable (SignalWatcher.Event) -> Void)?
    ) {
        self.watched = watched
        self.continuation = continuation
        self.onEvent = onEvent
        SignalHub.shared.subscribe(watched, id: id) { [weak self] event in self?.deliver(event) }
    }

    var hasDelivered: Bool {
        state.withLock { $0.delivered }
    }

    private func deliver(_ event: SignalWatcher.Event) {
        onEvent?(event)
        // Yielded first: whoever sees `hasDelivered` and then stops the watcher finds the event
        // in the stream (marked first, a stop in between finished the stream before the yield).
        continuation.yield(event)
        state.withLock { $0.delivered = true }
    }

    func stop() {
        let wasActive = state.withLock { state in
            let wasActive = state.active
            state.active = false
            return wasActive
        }
        guard wasActive else { return }
        for event in watched { SignalHub.shared.unsubscribe(event, id: id) }
        continuation.finish()
    }
}

/// Process-wide signal plumbing: the hub's own handler for each watched signal (installed with
/// `sigaction` on first use and kept for the life of the process) writes the signal's number to
/// a pipe; a thread of the hub's own, blocked reading the pipe, delivers it to the subscribers.
/// When a SIGINT/SIGTERM/SIGHUP arrives and no watcher listens, the hub applies the default action
/// (the process ends), so signals behave normally outside watchers.
///
/// Not libdispatch's signal sources: after `dispatch_main` the main thread waits in `sigsuspend`
/// with every signal unblocked, so the kernel delivers a process-directed signal to it, and
/// libdispatch's handler re-sends it to the thread that registered the source — which may have
/// left the pool since, or not be the one reading the `signalfd`: the signal was lost (seen: a
/// SIGINT to `bts -c 'echo started; sleep 30s'` under a full test run did nothing). A handler
/// that writes to a pipe loses nothing, whichever thread runs it.
final class SignalHub: Sendable {
    static let shared = SignalHub()

    private struct State {
        // Arrays, not dictionaries: a handful of entries, and no Hashable conformance looked up at
        // every start (each first lookup scans the binary's ~11,000 conformance records).
        var installed: [Int32] = []
        var subscribers: [(number: Int32, id: UUID, handler: @Sendable () -> Void)] = []
        var reader: Thread?
        var readFD: Int32 = -1
    }

    private let state = Mutex(State())

    func subscribe(
        _ events: [SignalWatcher.Event],
        id: UUID,
        handler: @escaping @Sendable (SignalWatcher.Event) -> Void
    ) {
        state.withLock { state in
            startReaderIfNeeded(&state)
            for event in events {
                let number = event.signalNumber
                state.subscribers.removeAll { $0.number == number && $0.id == id }
                state.subscribers.append((number, id, { handler(event) }))
                guard !state.installed.contains(number), signalPipeWriteFD >= 0 else { continue }
                // Synchronous: from here on the signal reaches the pipe (one that arrived blocked
                // before is still pending and arrives now).
                var action = sigaction()
                action.__sigaction_handler.sa_handler = signalPipeHandler
                action.sa_flags = SA_RESTART
                sigemptyset(&action.sa_mask)
                sigaction(number, &action, nil)
                state.installed.append(number)
            }
        }
    }

    /// The pipe and its read source, once (called with the lock held).
    private func startReaderIfNeeded(_ state: inout State) {
        guard state.reader == nil else { return }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // The handler never blocks: a full pipe drops the byte (64 KB of unread signals).
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        state.readFD = fds[0]
        signalPipeWriteFD = fds[1]
        // A thread of its own, blocked in `read`: a dispatch read source (on the global queue,
        // then on a queue of its own) once left a SIGINT unread for two minutes in a loaded test
        // process, its wake-up waiting on libdispatch's threads; this thread needs nobody.
        let fd = state.readFD
        let thread = Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                for byte in buffer[..<count] { self?.deliver(Int32(byte)) }
            }
        }
        thread.name = "bts.signals"
        thread.stackSize = 64 * 1024
        thread.start()
        state.reader = thread
    }

    func unsubscribe(_ event: SignalWatcher.Event, id: UUID) {
        state.withLock { state in state.subscribers.removeAll { $0.number == event.signalNumber && $0.id == id } }
    }

    private func deliver(_ number: Int32) {
        let handlers = state.withLock { state in state.subscribers.filter { $0.number == number }.map(\.handler) }
        if handlers.isEmpty {
            guard number != SIGWINCH else { return }
            // Nobody watches: behave like the default action (terminate). The signal may be
            // blocked (`blockTerminationSignals`): unblock it here and raise it on this thread.
            _ = signal(number, SIG_DFL)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, number)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            _ = raise(number)
            return
        }
        for handler in handlers { handler() }
    }
}

/// The write end of the hub's pipe (set once, before any handler is installed).
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

/// The hub's signal handler: async-signal-safe (one `write`, `errno` kept).
private func signalPipeHandler(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteFD, &byte, 1)
    errno = saved
}
