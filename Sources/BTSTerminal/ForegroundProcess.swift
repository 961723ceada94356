import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process in bts's own process group, so that on a terminal it is in the foreground
/// (a pager or an editor reads keys and sets terminal modes without being stopped by SIGTTIN /
/// SIGTTOU; Foundation's `Process` puts children in a process group of their own).
package struct ForegroundProcess: Sendable {
    package let pid: pid_t

    /// Starts `/bin/sh -c script` (with `arguments` as `$1…`); its stdin/stdout/stderr are the given
    /// descriptors (nil: bts's own). With `ownProcessGroup` it leads a process group of its own
    /// instead (off the terminal: ``signalGroup(_:)`` reaches it and everything it started).
    /// Returns nil when it cannot be started.
    package static func shell(
        _ script: String,
        arguments: [String] = [],
        stdin: Int32? = nil,
        stdout: Int32? = nil,
        stderr: Int32? = nil,
        ownProcessGroup: Bool = false,
        closing: [Int32] = []
    ) -> ForegroundProcess? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO) }
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, STDOUT_FILENO) }
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr, STDERR_FILENO) }
        for descriptor in closing { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default dispositions in the child (bts ignores SIGPIPE; a pipeline must not).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ["/bin/sh", "-c", script, "sh"] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &cArguments, environ)
        guard result == 0 else { return nil }
        return ForegroundProcess(pid: pid)
    }

    /// Waits for the process (blocking): its exit status, or 128+N when signal N ended it.
    package func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return 127 }
        }
        let signal = status & 0x7F
        if signal != 0 { return 128 + signal }
        return (status >> 8) & 0xFF
    }

    /// Asks it to stop (SIGTERM).
    package func terminate() {
        kill(pid, SIGTERM)
    }

    /// Sends `signal` to its whole process group (started with `ownProcessGroup`).
    package func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }
}
