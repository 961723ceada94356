import BTSTerminal
import BooksTrackClient
import BooksTrackContract
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `--input FILE` and `--input -`: the raw body `api` sends, at most
/// ``BooksTrackAPI/maxRawRequestBodyBytes``, read with that bound.
extension ApiCommand {
    /// The word that names standard input.
    static let standardInputName = "-"

    /// Why `--input -` may not read standard input, or nil when it may: not from a terminal (it
    /// would wait for typing), not while bts reads its commands from it (it would swallow the rest
    /// of the script).
    static func standardInputRefusal(isTerminal: Bool, carriesCommands: Bool) -> String? {
        if isTerminal {
            return
                "--input - reads the body from standard input, which is a terminal here: pipe the body in or give it as a file"
        }
        if carriesCommands {
            return
                "--input - cannot read standard input while bts reads its commands from it: run the commands with -c or as bts FILE, or give the body as a file"
        }
        return nil
    }

    /// The body `--input` names: standard input for `-`, else a regular file.
    static func body(from name: String, in context: isolated any CommandContext) async throws -> Data {
        guard name == standardInputName else { return try read(name, in: context) }
        let isTerminal = context.output.terminal.stdinIsTerminal
        if let refusal = standardInputRefusal(
            isTerminal: isTerminal,
            carriesCommands: context.commandsComeFromStandardInput
        ) {
            throw ShellError(.usage, refusal)
        }
        let limit = BooksTrackAPI.maxRawRequestBodyBytes
        switch await StandardInputBody.read(STDIN_FILENO, limit: limit) {
        case .body(let data): return data
        case .tooLarge:
            throw ShellError(
                .usage,
                "the body on standard input is larger than \(limit / 1024 / 1024) MiB, the most api sends"
            )
        case .failed(let reason):
            throw ShellError(.failure, "cannot read the body from standard input (\(reason))")
        case .cancelled:
            throw ShellError.interrupted()
        }
    }

    /// The body `--input FILE` names: a regular file, at most ``BooksTrackAPI/maxRawRequestBodyBytes``.
    static func read(_ name: String, in context: isolated any CommandContext) throws(ShellError) -> Data {
        let limit = BooksTrackAPI.maxRawRequestBodyBytes
        let url = context.resolvePath(name)
        let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
        guard type == .typeRegular else {
            let why = type == nil ? "no such file" : "not a regular file"
            throw ShellError(.failure, "\(name): cannot send it as the body (\(why))", code: .notFound)
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw ShellError(.failure, "\(name): cannot send it as the body (permission denied)")
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit + 1) else {
            throw ShellError(.failure, "\(name): cannot send it as the body (read failed)")
        }
        guard data.count <= limit else {
            throw ShellError(.failure, "\(name): the body is larger than \(limit / 1024 / 1024) MiB")
        }
        return data
    }
}

extension ShellOptions {
    /// Whether a run of bts with the `-c` texts `commands` and the script words `script` reads its
    /// commands from standard input: with neither (the prompt, a pipe, a redirected file), or with
    /// a FILE that names it (`bts /dev/stdin`).
    package static func readsCommandsFromStandardInput(commands: [String], script: [String]) -> Bool {
        guard commands.isEmpty else { return false }
        guard let file = script.first else { return true }
        return FileDescriptorPath.descriptor(of: file) == STDIN_FILENO
    }
}

/// Reads a descriptor to its end on a thread of its own (a slow writer never holds up the
/// shell's event loops), at most `limit` bytes, and stops when the task is cancelled (Ctrl-C).
enum StandardInputBody {
    enum Outcome: Sendable, Equatable {
        case body(Data)
        /// More than the limit arrived (what came is dropped; the rest is not read).
        case tooLarge
        case failed(String)
        case cancelled
    }

    /// Set when the reading task is cancelled; read by the reading thread.
    final class CancelFlag: Sendable {
        private let state = Mutex(false)
        var isSet: Bool { state.withLock { $0 } }
        func set() { state.withLock { $0 = true } }
    }

    static func read(_ descriptor: Int32, limit: Int) async -> Outcome {
        let cancelled = CancelFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let thread = Thread {
                    continuation.resume(returning: readAll(descriptor, limit: limit) { cancelled.isSet })
                }
                thread.name = "bts.api-input"
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// The blocking read: waits in slices of 100 ms so that cancellation is seen.
    static func readAll(_ descriptor: Int32, limit: Int, isCancelled: () -> Bool) -> Outcome {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if isCancelled() { return .cancelled }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 100)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(String(cString: strerror(errno)))
            }
            if ready == 0 { continue }
            let wanted = min(buffer.count, limit + 1 - data.count)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failed(String(cString: strerror(errno)))
            }
            if count == 0 { return .body(data) }
            data.append(contentsOf: buffer[..<count])
            if data.count > limit { return .tooLarge }
        }
    }
}
