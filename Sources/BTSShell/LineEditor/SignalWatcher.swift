import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns process signals into an `AsyncStream` of events, with the signals' default actions
/// disabled while the watcher is active (so Ctrl-C or SIGTERM never kill the process by
/// themselves; the REPL decides). `stop()` (or deinit) restores the previous dispositions.
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
}

/// The mutable part of `SignalWatcher`, guarded by a lock.
private final class SignalWatcherState: @unchecked Sendable {
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []
    private var previous: [(Int32, sigaction)] = []
    private let continuation: AsyncStream<SignalWatcher.Event>.Continuation

    init(watched: [SignalWatcher.Event], continuation: AsyncStream<SignalWatcher.Event>.Continuation) {
        self.continuation = continuation
        for event in watched {
            let number = event.signalNumber
            var ignore = sigaction()
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            sigemptyset(&ignore.sa_mask)
            var old = sigaction()
            // SIGWINCH is ignored by default already; replacing it would hide it from others.
            if number != SIGWINCH, sigaction(number, &ignore, &old) == 0 {
                previous.append((number, old))
            }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(event) }
            source.resume()
            sources.append(source)
        }
    }

    func stop() {
        lock.lock()
        defer { lock.unlock() }
        for source in sources { source.cancel() }
        sources.removeAll()
        for (number, var action) in previous { _ = sigaction(number, &action, nil) }
        previous.removeAll()
        continuation.finish()
    }
}
