import Foundation
import TestSupport
import Testing

@testable import BTSTerminal

#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose write end is fed from a background thread.
private struct Pipe {
    let readFD: Int32
    let writeFD: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        readFD = fds[0]
        writeFD = fds[1]
    }

    /// Writes `bytes` in chunks of `chunk` bytes on a background thread, then closes the write end.
    func feed(_ bytes: [UInt8], chunk: Int = 4096) {
        let writeFD = self.writeFD
        Thread.detachNewThread {
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunk)
                let written = bytes[offset..<end].withUnsafeBytes { write(writeFD, $0.baseAddress, $0.count) }
                if written <= 0 { break }
                offset += written
            }
            close(writeFD)
        }
    }
}

@Suite("PlainLineReader")
struct PlainLineReaderTests {
    private func readAll(_ reader: PlainLineReader) async -> [LineEditorResult] {
        var results: [LineEditorResult] = []
        while true {
            let result = await reader.readLine(prompt: "ignored> ")
            results.append(result)
            if result == .eof { return results }
        }
    }

    @Test("lines, CRLF, empty lines and a final line without newline")
    func basicLines() async throws {
        let pipe = try Pipe()
        defer { close(pipe.readFD) }
        pipe.feed(Array("search dune\r\n\njobs\ncafé ☕".utf8), chunk: 3)
        let reader = PlainLineReader(fileDescriptor: pipe.readFD)
        #expect(await readAll(reader) == [.line("search dune"), .line(""), .line("jobs"), .line("café ☕"), .eof])
        #expect(await reader.readLine(prompt: "x") == .eof)
    }

    @Test("a very long line arrives whole")
    func longLine() async throws {
        let pipe = try Pipe()
        defer { close(pipe.readFD) }
        let long = String(repeating: "0123456789", count: 300_000)  // 3 MB
        pipe.feed(Array((long + "\nshort\n").utf8), chunk: 65_000)
        let reader = PlainLineReader(fileDescriptor: pipe.readFD)
        #expect(await readAll(reader) == [.line(long), .line("short"), .eof])
    }

    @Test("continuation lines are joined while incomplete; EOF hands over the rest")
    func continuation() async throws {
        let pipe = try Pipe()
        defer { close(pipe.readFD) }
        pipe.feed(Array("echo \"a\nb\"\nnext\necho \"open\n".utf8))
        let reader = PlainLineReader(
            fileDescriptor: pipe.readFD,
            isComplete: { $0.filter { $0 == "\"" }.count % 2 == 0 }
        )
        #expect(await readAll(reader) == [.line("echo \"a\nb\""), .line("next"), .line("echo \"open"), .eof])
    }

    @Test("a line that is not UTF-8 is reported with its place, never repaired; reading goes on after it")
    func invalidUTF8() async throws {
        let pipe = try Pipe()
        defer { close(pipe.readFD) }
        pipe.feed(Array("ok\r\n".utf8) + [0x61, 0xFF, 0x62, 0x0A] + Array("after\n".utf8) + [0xC3], chunk: 2)
        let reader = PlainLineReader(fileDescriptor: pipe.readFD)
        #expect(
            await readAll(reader) == [
                .line("ok"),
                .notUTF8(UndecodableLine(number: 2, offset: 4, bytes: [0x61, 0xFF, 0x62])),
                .line("after"),
                .notUTF8(UndecodableLine(number: 4, offset: 14, bytes: [0xC3])),
                .eof,
            ]
        )
    }

    @Test("a bad line inside an unfinished command drops what was pending")
    func invalidUTF8InContinuation() async throws {
        let pipe = try Pipe()
        defer { close(pipe.readFD) }
        pipe.feed(Array("echo \"a\n".utf8) + [0xE9, 0x22, 0x0A] + Array("next\n".utf8))
        let reader = PlainLineReader(
            fileDescriptor: pipe.readFD,
            isComplete: { $0.filter { $0 == "\"" }.count % 2 == 0 }
        )
        #expect(
            await readAll(reader) == [
                .notUTF8(UndecodableLine(number: 2, offset: 8, bytes: [0xE9, 0x22])), .line("next"), .eof,
            ]
        )
    }

    @Test("cancelRead and task cancellation end a blocked read; the input stays readable")
    func cancellation() async throws {
        let pipe = try Pipe()
        defer { close(pipe.readFD) }
        let reader = PlainLineReader(fileDescriptor: pipe.readFD)
        let pending = Task { await reader.readLine(prompt: "") }
        try await Task.sleep(for: .milliseconds(50))
        reader.cancelRead()
        #expect(await pending.value == .interrupted)
        let cancelled = Task { await reader.readLine(prompt: "") }
        try await Task.sleep(for: .milliseconds(50))
        cancelled.cancel()
        #expect(await cancelled.value == .interrupted)
        pipe.feed(Array("after\n".utf8))
        #expect(await reader.readLine(prompt: "") == .line("after"))
        #expect(await reader.readLine(prompt: "") == .eof)
    }

    @Test("an empty input is EOF at once")
    func empty() async throws {
        let pipe = try Pipe()
        defer { close(pipe.readFD) }
        pipe.feed([])
        #expect(await PlainLineReader(fileDescriptor: pipe.readFD).readLine(prompt: "") == .eof)
    }
}

@Suite("SignalWatcher")
struct SignalWatcherTests {
    /// Sends `signal` to this process and waits (≤ 1 s) for `watcher` to see it; resends at most
    /// four times (a lost signal fails the test below, which sends once).
    private func sendUntilDelivered(_ signal: Int32, to watcher: SignalWatcher) async throws {
        for _ in 0..<5 {
            kill(getpid(), signal)
            for _ in 0..<100 {
                if watcher.hasDelivered { return }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    @Test("delivers SIGWINCH as an event")
    func windowChanged() async throws {
        let watcher = SignalWatcher([.windowChanged])
        defer { watcher.stop() }
        let received = Task { () -> SignalWatcher.Event? in
            for await event in watcher.events { return event }
            return nil
        }
        try await sendUntilDelivered(SIGWINCH, to: watcher)
        watcher.stop()
        #expect(await received.value == .windowChanged)
    }

    @Test("SIGINT never has its default action while a watcher is active; a second watcher still receives")
    func dispositions() async throws {
        func handler() -> Int {
            var action = sigaction()
            sigaction(SIGINT, nil, &action)
            return withUnsafeBytes(of: &action.__sigaction_handler) { $0.load(as: Int.self) }
        }
        let first = SignalWatcher([.interrupt])
        let second = SignalWatcher([.interrupt])
        #expect(handler() != 0)  // 0 is SIG_DFL (terminate); the hub's handler is in place at once
        first.stop()
        #expect(handler() != 0)
        second.stop()
        // A watcher created after others stopped still gets SIGINT (and the process survives it).
        let third = SignalWatcher([.interrupt])
        defer { third.stop() }
        let received = Task { () -> SignalWatcher.Event? in
            for await event in third.events { return event }
            return nil
        }
        // The hub's SIGINT handler has been installed since `first`: one signal, no resend (a
        // stray SIGINT arriving after the last watcher stopped would take the default action).
        kill(getpid(), SIGINT)
        _ = try await eventually(every: .milliseconds(10)) { third.hasDelivered }
        third.stop()
        #expect(await received.value == .interrupt)
    }

    @Test("exit statuses follow the 128+signal convention")
    func exitStatus() {
        #expect(SignalWatcher.Event.interrupt.exitStatus == 130)
        #expect(SignalWatcher.Event.terminate.exitStatus == 143)
        #expect(SignalWatcher.Event.hangup.exitStatus == 129)
    }
}
