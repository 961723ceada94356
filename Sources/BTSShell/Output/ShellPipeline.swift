import BTSTerminal
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A pipeline of the user's (`search dune | jq .`, the pager) run by `/bin/sh`: bytes in on its
/// stdin, its stdout to the terminal or back into bts.
enum ShellPipeline {
    /// Writes every byte; the reason when it cannot.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        DescriptorWriter.writeAll(bytes, to: descriptor).map { String(cString: strerror($0)) }
    }

    /// Runs `/bin/sh -c pipeline` with `input` on its stdin, in bts's process group (a pager such
    /// as `less` stays in the terminal's foreground). Its stdout goes to the terminal (`output`
    /// nil) or into `output`; its stderr is bts's, or with `errors` goes into `errors`, and the
    /// pipeline then leads a process group of its own (none of it is on the terminal). Returns its
    /// exit status (128+N when signal N ended it; 127 when it could not start). Cancelling the task
    /// (Ctrl-C, a test file's time limit) terminates it; with `errors`, its whole process group:
    /// SIGTERM, and SIGKILL `killGrace` later.
    static func run(
        _ pipeline: String,
        input: [UInt8],
        output: (any OutputSink)?,
        errors: (any OutputSink)? = nil
    ) async throws -> Int32 {
        _ = ignoreBrokenPipes
        var stdin: [Int32] = [-1, -1]
        var stdout: [Int32] = [-1, -1]
        var stderr: [Int32] = [-1, -1]
        guard makePipe(&stdin), output == nil || makePipe(&stdout), errors == nil || makePipe(&stderr) else {
            let reason = String(cString: strerror(errno))
            closeAll(stdin + stdout + stderr)
            throw ShellError(.failure, "cannot run the pipeline: \(reason)", code: .pipelineFailed)
        }
        let child = ForegroundProcess.shell(
            pipeline,
            stdin: stdin[0],
            stdout: output != nil ? stdout[1] : nil,
            stderr: errors != nil ? stderr[1] : nil,
            ownProcessGroup: errors != nil
        )
        closeAll([stdin[0], stdout[1], stderr[1]])
        guard let child else {
            closeAll([stdin[1], stdout[0], stderr[0]])
            throw ShellError(.failure, "cannot run /bin/sh for the pipeline", code: .pipelineFailed)
        }
        let (writeEnd, readEnd, errorEnd) = (stdin[1], stdout[0], stderr[0])
        async let fed: Void = onThread {
            _ = writeAll(input, to: writeEnd)
            Glibc.close(writeEnd)
        }
        async let read: [UInt8] = onThread { readAll(readEnd) }
        async let readErrors: [UInt8] = onThread { readAll(errorEnd) }
        let status = await withTaskCancellationHandler {
            await onThread { child.wait() }
        } onCancel: {
            if errors != nil { stopGroup(of: child) } else { child.terminate() }
        }
        await fed
        let bytes = await read
        let errorBytes = await readErrors
        if let output, !bytes.isEmpty { output.write(String(decoding: bytes, as: UTF8.self), to: .standardOutput) }
        if let errors, !errorBytes.isEmpty {
            errors.write(String(decoding: errorBytes, as: UTF8.self), to: .standardError)
        }
        if Task.isCancelled { throw ShellError.interrupted() }
        return status
    }

    /// How long a cancelled pipeline's process group has between SIGTERM and SIGKILL.
    static let killGrace: Duration = .seconds(1)

    /// SIGTERM to the child's process group, then SIGKILL `killGrace` later (a child that ignores
    /// SIGTERM, or one it started that holds the pipes open, does not keep bts waiting).
    private static func stopGroup(of child: ForegroundProcess) {
        child.signalGroup(SIGTERM)
        let grace = Double(killGrace.components.seconds) + Double(killGrace.components.attoseconds) / 1e18
        Thread {
            Thread.sleep(forTimeInterval: grace)
            child.signalGroup(SIGKILL)
        }.start()
    }

    /// Everything `descriptor` gives until its end (then it is closed); nothing for -1.
    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        guard descriptor >= 0 else { return [] }
        defer { Glibc.close(descriptor) }
        var collected: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                collected += chunk[0..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return collected
            }
        }
    }

    /// Closes the descriptors that are open (not -1).
    private static func closeAll(_ descriptors: [Int32]) {
        for descriptor in descriptors where descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// A pipe whose ends close on exec (the child gets its own copies as stdin/stdout).
    static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    /// Runs blocking work on a thread of its own and waits for it without blocking the caller.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// A pipeline that stops reading early (`head -1`) must not kill bts with SIGPIPE: writes
    /// to it fail with EPIPE instead. Set once, on the first pipeline.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()
}
