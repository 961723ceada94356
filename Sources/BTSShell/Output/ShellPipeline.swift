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
    /// nil) or into `output`; its stderr is bts's. Returns its exit status (128+N when signal N
    /// ended it; 127 when it could not start). Cancelling the task (Ctrl-C) terminates it.
    static func run(_ pipeline: String, input: [UInt8], output: (any OutputSink)?) async throws -> Int32 {
        _ = ignoreBrokenPipes
        var stdin: [Int32] = [-1, -1]
        var stdout: [Int32] = [-1, -1]
        guard makePipe(&stdin) else {
            throw ShellError(.failure, "cannot run the pipeline: \(String(cString: strerror(errno)))", code: .pipelineFailed)
        }
        if output != nil, !makePipe(&stdout) {
            Glibc.close(stdin[0])
            Glibc.close(stdin[1])
            throw ShellError(.failure, "cannot run the pipeline: \(String(cString: strerror(errno)))", code: .pipelineFailed)
        }
        let child = ForegroundProcess.shell(pipeline, stdin: stdin[0], stdout: output != nil ? stdout[1] : nil)
        Glibc.close(stdin[0])
        if output != nil { Glibc.close(stdout[1]) }
        guard let child else {
            Glibc.close(stdin[1])
            if output != nil { Glibc.close(stdout[0]) }
            throw ShellError(.failure, "cannot run /bin/sh for the pipeline", code: .pipelineFailed)
        }
        let writeEnd = stdin[1]
        let readEnd = stdout[0]
        async let fed: Void = onThread {
            _ = writeAll(input, to: writeEnd)
            Glibc.close(writeEnd)
        }
        async let read: [UInt8] = onThread {
            guard readEnd >= 0 else { return [] }
            defer { Glibc.close(readEnd) }
            var collected: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected += chunk[0..<count]
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return collected
                }
            }
        }
        let status = await withTaskCancellationHandler {
            await onThread { child.wait() }
        } onCancel: {
            child.terminate()
        }
        await fed
        let bytes = await read
        if let output, !bytes.isEmpty { output.write(String(decoding: bytes, as: UTF8.self), to: .standardOutput) }
        if Task.isCancelled { throw ShellError.interrupted() }
        return status
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
