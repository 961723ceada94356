import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Drives a program in a real terminal: a detached tmux session on a private server socket
/// (`tmux -L <unique>`), so tests can type keys and read the screen. The server is killed by
/// `close()` or at deinit. Reusable for the `bts` REPL tests.
///
/// ```swift
/// let session = try TmuxSession(command: [binary], environment: ["HOME": tmp])
/// try await session.waitForScreen(containing: "bts> ")
/// try session.type("search dune"); try session.press("Enter")
/// ```
package final class TmuxSession {
    /// A failed tmux operation or an unmet wait; carries the last screen for the message.
    package struct Failure: Error, CustomStringConvertible {
        package init(message: String, screen: String) {
            self.message = message
            self.screen = screen
        }
        package let message: String
        package let screen: String
        package var description: String { "\(message)\n--- screen ---\n\(screen)\n--------------" }
    }

    /// True when a `tmux` binary is on PATH (tests should skip otherwise).
    package static var isAvailable: Bool { executable() != nil }

    package let socket: String
    package let target = "main"
    private let tmux: String
    private let configFile: URL
    private var closed = false
    /// The tmux server's and the program's process ids (killed by `close()` if `kill-server` did
    /// not end them: a loaded full test run has left both alive).
    private var processIDs: [pid_t] = []

    /// Starts `command` (argv; the first element is the program) in a `width`×`height` terminal
    /// with `environment` added to the current one. `remain-on-exit` keeps the pane after the
    /// program ends so its exit status can be read.
    package init(command: [String], environment: [String: String] = [:], width: Int = 100, height: Int = 30) throws {
        guard let tmux = Self.executable() else {
            throw Failure(message: "tmux is not installed", screen: "")
        }
        self.tmux = tmux
        socket = "bts-test-\(UUID().uuidString.prefix(12))"
        configFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf")
        try "set -g status off\nset -g remain-on-exit on\nset -g history-limit 1000\n"
            .write(to: configFile, atomically: true, encoding: .utf8)
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let shellCommand = "exec env " + (assignments + command).map(Self.shellQuote).joined(separator: " ")
        // No output capture: the server this forks would inherit the pipe and keep it open.
        try run(
            ["new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)", shellCommand],
            capture: false
        )
        processIDs = ((try? run(["display-message", "-p", "-t", target, "#{pid} #{pane_pid}"])) ?? "")
            .split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }.filter { $0 > 1 }
    }

    deinit { close() }

    /// Kills the tmux server (and the program). Idempotent.
    package func close() {
        guard !closed else { return }
        closed = true
        _ = try? run(["kill-server"])
        // Give the server up to half a second to end what it was told to end; then end it for sure.
        for _ in 0..<50 where processIDs.contains(where: Self.isRunning) { usleep(10_000) }
        for pid in processIDs where Self.isRunning(pid) { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: configFile)
    }

    /// The process exists and has not exited (a zombie has).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return true }
        return !stat[close...].hasPrefix(") Z")
    }

    // MARK: input

    /// Types `text` literally (UTF-8 is fine).
    package func type(_ text: String) throws {
        try run(["send-keys", "-t", target, "-l", text])
    }

    /// Presses keys by tmux name: "Enter", "Tab", "BSpace", "Left", "Up", "C-c", "C-d", "C-r", "Escape".
    package func press(_ keys: String...) throws {
        try run(["send-keys", "-t", target] + keys)
    }

    // MARK: output

    /// The visible screen, one line per row, trailing blanks trimmed.
    package func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", target])
    }

    /// The visible screen with lines the terminal wrapped joined back into one (`joined`), and
    /// with the cells' colours and attributes as SGR escape sequences (`escapes`).
    package func screen(joined: Bool, escapes: Bool) throws -> String {
        try run(["capture-pane", "-p", "-t", target] + (joined ? ["-J"] : []) + (escapes ? ["-e"] : []))
    }

    /// Polls the screen (every 25 ms, at most `timeout`, scaled by `TestTime`) until it contains `text`,
    /// also where the terminal wrapped it over two lines (a long path moves the wrap) or bts broke it
    /// between two words; returns the
    /// capture that contained it (the joined one when only that did: the screen may have changed
    /// between the two captures, and an earlier capture would not show what was waited for).
    @discardableResult
    package func waitForScreen(containing text: String, timeout: Duration = .seconds(30)) async throws -> String {
        var matched = ""
        _ = try await waitForScreen(timeout: timeout, description: "screen to contain \"\(text)\"") { screen in
            if screen.contains(text) {
                matched = screen
                return true
            }
            if let joined = try? self.screen(joined: true, escapes: false), joined.contains(text) {
                matched = joined
                return true
            }
            // bts wraps prose between words to the terminal's width: a longer path before it moves
            // the break, so the words may stand on two lines.
            guard Self.words(screen).contains(Self.words(text)) else { return false }
            matched = screen
            return true
        }
        return matched
    }

    /// `text` with each run of spaces and line breaks as one space.
    private static func words(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    /// Polls the screen until `predicate` holds (bounded by `timeout`, scaled by `TestTime`); returns the screen.
    @discardableResult
    package func waitForScreen(
        timeout: Duration = .seconds(30),
        description: String = "screen condition",
        _ predicate: (String) -> Bool
    ) async throws -> String {
        let deadline = ContinuousClock.now + timeout.scaled
        var last = ""
        while true {
            last = try screen()
            if predicate(last) { return last }
            if ContinuousClock.now >= deadline {
                throw Failure(message: "timed out waiting for \(description)", screen: last)
            }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// The cursor's (column, row), zero-based.
    package func cursorPosition() throws -> (x: Int, y: Int) {
        let parts = try run(["display-message", "-p", "-t", target, "#{cursor_x} #{cursor_y}"])
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").compactMap { Int($0) }
        guard parts.count == 2 else { throw Failure(message: "no cursor position", screen: "") }
        return (parts[0], parts[1])
    }

    /// Resizes the terminal (the program gets SIGWINCH).
    package func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits (bounded by `timeout`, scaled by `TestTime`) for the program to end and returns its exit status.
    package func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout.scaled
        var deadSince: ContinuousClock.Instant?
        while true {
            let state = try run(["display-message", "-p", "-t", target, "#{pane_dead} #{pane_dead_status}"])
                .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
            if state.first == "1", state.count > 1, let status = Int32(state[1]) { return status }
            if state.first == "1" {
                // tmux 3.3a sometimes misses the SIGCHLD of a pane's program: the program has
                // exited (a zombie, its pty closed) but the server never reaps it, so the pane
                // stays dead without a status. Seen in about 1 run in 5 under load; bts itself
                // had exited 0. A SIGCHLD sent to the server makes it reap and record the status.
                let now = ContinuousClock.now
                if let since = deadSince, now - since > .milliseconds(200) {
                    if let server = Int32(
                        try run(["display-message", "-p", "#{pid}"])
                            .trimmingCharacters(in: .whitespacesAndNewlines)
                    ) {
                        print("tmux left the exited program unreaped; sent SIGCHLD to its server \(server)")
                        kill(server, SIGCHLD)
                    }
                    deadSince = now
                } else if deadSince == nil {
                    deadSince = now
                }
            }
            if ContinuousClock.now >= deadline {
                throw Failure(message: "timed out waiting for the program to exit", screen: (try? screen()) ?? "")
            }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// The program's process id (the pane runs it via `exec`).
    package func programPID() throws -> Int32 {
        let text = try run(["display-message", "-p", "-t", target, "#{pane_pid}"])
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(message: "no pane pid in \(text)", screen: "")
        }
        return pid
    }

    // MARK: plumbing

    @discardableResult
    private func run(_ arguments: [String], capture: Bool = true) throws -> String {
        let argv = [tmux, "-u", "-L", socket, "-f", configFile.path] + arguments
        let (status, text) = try Self.spawn(argv, capture: capture)
        guard status == 0 else {
            throw Failure(message: "tmux \(arguments.first ?? "") failed (\(status))", screen: text)
        }
        return text
    }

    /// posix_spawn + waitpid (Foundation's Process can miss the exit of a tmux client that
    /// daemonised a server). stdin and stderr are /dev/null; stdout is captured or /dev/null.
    private static func spawn(_ argv: [String], capture: Bool) throws -> (Int32, String) {
        var fds: [Int32] = [-1, -1]
        // Close-on-exec, so a tmux server forked by a concurrent spawn cannot inherit this pipe and
        // keep our read from reaching EOF.
        if capture, Self.closeOnExecPipe(&fds) != 0 { throw Failure(message: "pipe failed", screen: "") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if capture {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        // Nothing else leaks into tmux (and the server it forks): other tests' pipes (Foundation's
        // Pipe is not close-on-exec) would otherwise stay open until this tmux server exits.
        _ = SpawnSupport.addCloseFrom?(&actions, 3)
        // Test threads (libdispatch workers) block signals; a tmux server inheriting that mask
        // never sees SIGCHLD and never reaps its pane. Start it with an empty mask, default actions.
        var attributes = SpawnSupport.defaultSignalAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, environ)
        if capture { Glibc.close(fds[1]) }
        guard result == 0 else {
            if capture { Glibc.close(fds[0]) }
            throw Failure(message: "cannot run \(argv[0]): \(result)", screen: "")
        }
        var output: [UInt8] = []
        if capture {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = read(fds[0], &buffer, buffer.count)
                if count > 0 {
                    output.append(contentsOf: buffer[0..<count])
                    continue
                }
                if count < 0, errno == EINTR { continue }
                break
            }
            Glibc.close(fds[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, String(decoding: output, as: UTF8.self))
    }

    private static func executable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/tmux"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func shellQuote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func closeOnExecPipe(_ fds: inout [Int32]) -> Int32 {
        fds.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            if let pipe2 = SpawnSupport.pipe2 { return pipe2(base, O_CLOEXEC) }
            guard pipe(base) == 0 else { return -1 }
            _ = fcntl(base[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(base[1], F_SETFD, FD_CLOEXEC)
            return 0
        }
    }
}
