import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, with the part of Foundation's `Process` interface
/// the tests use, so that a call site changes only its type.
///
/// Why not `Process`: on Linux (swift-corelibs-foundation up to at least Swift 6.3.1) `run()` reads
/// past a buffer while it lists `/proc/self/fd` (`findMaximumOpenFromProcSelfFD`, fixed upstream by
/// swift-corelibs-foundation PR 5472) and crashes the whole test process now and then: seen here as a
/// SIGSEGV in `memcpy` under `Process.run()` while tmux tests spawned beside it. This type never lists
/// descriptors: the child closes every descriptor above 2 with `posix_spawn_file_actions_addclosefrom_np`.
///
/// Streams are what `Process` accepts: a `FileHandle` (dup'ed into the child; the caller keeps and
/// closes its own) or a `Pipe` (the child's end is closed in this process after the spawn, so that
/// reading the other end ends when the child exits). `nil` inherits this process's stream.
package final class SpawnedProcess: @unchecked Sendable {
    package enum TerminationReason: Sendable { case exit, uncaughtSignal }

    package var executableURL: URL?
    package var arguments: [String] = []
    /// The child's whole environment; nil inherits this process's.
    package var environment: [String: String]?
    package var currentDirectoryURL: URL?
    package var standardInput: Any?
    package var standardOutput: Any?
    package var standardError: Any?

    private let state = Mutex<(pid: pid_t, status: Int32?)>((0, nil))

    package init() {}

    package var processIdentifier: Int32 { state.withLock { $0.pid } }

    package struct SpawnFailure: Error, CustomStringConvertible {
        package let description: String
    }

    package func run() throws {
        guard let executable = executableURL?.path else { throw SpawnFailure(description: "no executable") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentCloses: [FileHandle] = []
        for (stream, target) in [
            (standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO),
        ] {
            switch stream {
            case let pipe as Pipe:
                let childEnd = target == STDIN_FILENO ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, childEnd.fileDescriptor, target)
                parentCloses.append(childEnd)
            case let handle as FileHandle:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            default:
                break
            }
        }
        if let directory = currentDirectoryURL {
            guard let addChdir = SpawnSupport.addChdir else {
                throw SpawnFailure(description: "no addchdir_np in this libc")
            }
            _ = addChdir(&actions, directory.path)
        }
        // Nothing else leaks into the child (another test's pipe kept open would hold its reader).
        _ = SpawnSupport.addCloseFrom?(&actions, 3)
        // Test threads block signals; the child starts with an empty mask and default actions.
        var attributes = SpawnSupport.defaultSignalAttributes()
        defer { posix_spawnattr_destroy(&attributes) }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map {
            $0.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for entry in envp ?? [] { free(entry) } }
        var pid: pid_t = 0
        let result =
            envp.map { envp in
                envp.withUnsafeBufferPointer {
                    posix_spawn(&pid, executable, &actions, &attributes, argv, $0.baseAddress)
                }
            } ?? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        for handle in parentCloses { try? handle.close() }
        guard result == 0 else {
            throw SpawnFailure(description: "cannot run \(executable): \(String(cString: strerror(result)))")
        }
        state.withLock { $0.pid = pid }
    }

    /// True until the child has exited (reaps it when it has).
    package var isRunning: Bool {
        state.withLock { state in
            guard state.pid > 0, state.status == nil else { return false }
            var status: Int32 = 0
            if waitpid(state.pid, &status, WNOHANG) == state.pid { state.status = status }
            return state.status == nil
        }
    }

    /// Blocks until the child has exited.
    package func waitUntilExit() {
        let pid = state.withLock { $0.status == nil ? $0.pid : 0 }
        guard pid > 0 else { return }
        var status: Int32 = 0
        while true {
            if waitpid(pid, &status, 0) == pid {
                state.withLock { $0.status = status }
                return
            }
            if errno == EINTR { continue }
            // ECHILD: `isRunning` reaped it meanwhile and recorded its status.
            if state.withLock({ $0.status }) != nil { return }
            usleep(1_000)
        }
    }

    private var rawStatus: Int32 { state.withLock { $0.status ?? 0 } }

    package var terminationReason: TerminationReason { (rawStatus & 0x7F) == 0 ? .exit : .uncaughtSignal }

    /// The exit status, or the signal's number when a signal ended the child (as `Process` gives).
    package var terminationStatus: Int32 {
        let status = rawStatus
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    /// Sends SIGTERM unless the child was already reaped (its pid may have been reused).
    package func terminate() {
        state.withLock { if $0.pid > 0, $0.status == nil { _ = kill($0.pid, SIGTERM) } }
    }
}

/// glibc functions hidden from Swift's Glibc module (they need _GNU_SOURCE), looked up at run time.
enum SpawnSupport {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let pipe2: Pipe2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2")
        .map { unsafeBitCast($0, to: Pipe2.self) }
    static let addCloseFrom: AddCloseFrom? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }
    /// Spawn attributes for a child that starts with an empty signal mask and every signal's
    /// default action (test threads block signals; a child inheriting that would never see, e.g.,
    /// SIGCHLD). The caller destroys them.
    static func defaultSignalAttributes() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }

    static let addChdir: AddChdir? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: AddChdir.self) }
}

/// What `bts serve` logs.
package enum ServeLog {
    /// The port of the first `listening on http://HOST:PORT` in the log.
    package static func port(in log: String) -> Int? {
        guard let range = log.range(of: "listening on http://") else { return nil }
        let rest = log[range.upperBound...]
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        return Int(rest[rest.index(after: colon)...].prefix { $0.isNumber })
    }
}
