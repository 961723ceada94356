import Dispatch
import Foundation
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
public final class SignalWatcher: Sendable {
    /// A received signal.
    public enum Event: Sendable, Equatable {
        case interrupt      // SIGINT
        case terminate      // SIGTERM
        case hangup         // SIGHUP
        case windowChanged  // SIGWINCH

        /// The conventional exit status for a shell ended by this signal (128 + number).
        public var exitStatus: Int32 {
            128 + signalNumber
        }

        /// The signal number.
        public var signalNumber: Int32 {
            switch self {
            case .interrupt: SIGINT
            case .terminate: SIGTERM
            case .hangup: SIGHUP
            case .windowChanged: SIGWINCH
            }
        }
    }

    /// Events in arrival order. Single consumer; buffers the newest 64 events.
    public let events: AsyncStream<Event>
    private let state: SignalWatcherState

    /// Starts watching `watched` (default: SIGINT, SIGTERM, SIGHUP, SIGWINCH).
    public init(_ watched: [Event] = [.interrupt, .terminate, .hangup, .windowChanged]) {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(64))
        events = stream
        state = SignalWatcherState(watched: watched, continuation: continuation)
    }

    deinit { state.stop() }

    /// Stops watching: cancels the sources, restores the previous signal actions, ends `events`.
    public func stop() { state.stop() }

    /// True once at least one event was delivered (for tests).
    var hasDelivered: Bool { state.hasDelivered }

    /// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, so that threads it creates
    /// afterwards inherit the block. Call it first thing on the main thread of a process that will
    /// watch these signals. Why: libdispatch reads signals through a signalfd, which sees only
    /// signals no thread accepts; a signal that lands on a thread that does not block it runs
    /// libdispatch's forwarding handler, which re-sends it to one particular thread, and from
    /// there it can be lost (seen: a Ctrl-C to `bts -c 'sleep 30s'` on a loaded machine did
    /// nothing). Blocked everywhere, a signal waits, pending, until a watcher's source reads it;
    /// one sent before any watcher exists is delivered to the first. Child processes are spawned
    /// with an empty mask (Foundation's `Process`, `ForegroundProcess`).
    public static func blockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}

/// One subscription of a `SignalWatcher` to the hub.
private final class SignalWatcherState: @unchecked Sendable {
    // @unchecked: mutable state guarded by `lock`.
    private let lock = NSLock()
    private let id = UUID()
    private var active = true
    private var delivered = false
    private let watched: [SignalWatcher.Event]
    private let continuation: AsyncStream<SignalWatcher.Event>.Continuation

    init(watched: [SignalWatcher.Event], continuation: AsyncStream<SignalWatcher.Event>.Continuation) {
        self.watched = watched
        self.continuation = continuation
        SignalHub.shared.subscribe(watched, id: id) { [weak self] event in self?.deliver(event) }
    }

    var hasDelivered: Bool {
        lock.lock()
        defer { lock.unlock() }
        return delivered
    }

    private func deliver(_ event: SignalWatcher.Event) {
        lock.lock()
        delivered = true
        lock.unlock()
        continuation.yield(event)
    }

    func stop() {
        lock.lock()
        let wasActive = active
        active = false
        lock.unlock()
        guard wasActive else { return }
        for event in watched { SignalHub.shared.unsubscribe(event, id: id) }
        continuation.finish()
    }
}

/// Process-wide signal plumbing: one DispatchSource per signal, created on first use and kept
/// for the life of the process (libdispatch installs its own handler when the source registers;
/// touching the disposition again later would disable it). The signal's disposition is set to
/// SIG_IGN just before its source is created, so an early signal is ignored, never fatal, and
/// `subscribe` returns once libdispatch's handler is in place (from then on none is lost).
/// When a SIGINT/SIGTERM/SIGHUP arrives and no watcher listens, the hub applies the default
/// action (the process ends), so signals behave normally outside watchers.
final class SignalHub: @unchecked Sendable {
    static let shared = SignalHub()
    // @unchecked: mutable state guarded by `lock`.
    private let lock = NSLock()
    // Arrays, not dictionaries: a handful of entries, and no Hashable conformance looked up at
    // every start (each first lookup scans the binary's ~11,000 conformance records).
    private var sources: [(number: Int32, source: any DispatchSourceSignal)] = []
    private var subscribers: [(number: Int32, id: UUID, handler: @Sendable () -> Void)] = []

    func subscribe(
        _ events: [SignalWatcher.Event], id: UUID, handler: @escaping @Sendable (SignalWatcher.Event) -> Void
    ) {
        lock.lock()
        defer { lock.unlock() }
        var registering: [(number: Int32, before: Int)] = []
        for event in events {
            let number = event.signalNumber
            subscribers.removeAll { $0.number == number && $0.id == id }
            subscribers.append((number, id, { handler(event) }))
            guard !sources.contains(where: { $0.number == number }) else { continue }
            if number != SIGWINCH { _ = signal(number, SIG_IGN) }  // SIGWINCH is ignored by default
            let before = Self.disposition(number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
            sources.append((number, source))
            registering.append((number, before))
        }
        // libdispatch registers the sources on its manager thread, after `resume()` returns; until
        // a source's handler replaces SIG_IGN its signal is discarded (seen: a SIGINT to a
        // just-started `bts -c` on a loaded machine was lost). Wait for them (all at once), so
        // that a signal sent once the watcher exists is never lost.
        let deadline = ContinuousClock.now + .seconds(5)
        while registering.contains(where: { Self.disposition($0.number) == $0.before }), ContinuousClock.now < deadline {
            usleep(200)
        }
    }

    /// The signal's current handler as a number (0 = SIG_DFL, 1 = SIG_IGN, else a function).
    private static func disposition(_ number: Int32) -> Int {
        var action = sigaction()
        sigaction(number, nil, &action)
        return withUnsafeBytes(of: &action.__sigaction_handler) { $0.load(as: Int.self) }
    }

    func unsubscribe(_ event: SignalWatcher.Event, id: UUID) {
        lock.lock()
        subscribers.removeAll { $0.number == event.signalNumber && $0.id == id }
        lock.unlock()
    }

    private func deliver(_ number: Int32) {
        lock.lock()
        let handlers = subscribers.filter { $0.number == number }.map(\.handler)
        lock.unlock()
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
