import BTSTerminal
import Foundation
import Testing

@testable import BTSShell

#if canImport(Glibc)
import Glibc
#endif

/// A stream's line that is not UTF-8 (commands piped to bts) is placed as the same bytes in a file
/// would be: line, column and byte offset in the whole stream, a leading byte-order mark counted in
/// the offset only. Piped commands stop at it (status 2); at the prompt it is refused and the
/// session goes on.
@Suite("ScriptFile: a stream's line that is not UTF-8")
struct ScriptFileStreamTests {
    /// The place `ScriptFile.decode` gives the whole text.
    func filePlace(_ bytes: [UInt8]) -> ScriptFile.Place? {
        do throws(ScriptFile.Failure) {
            _ = try ScriptFile.decode(bytes)
            return nil
        } catch {
            return error.place
        }
    }

    /// The place of the line of `stream` numbered `number` (from 1), starting at `offset`.
    func streamPlace(_ stream: [UInt8], line number: Int) -> ScriptFile.Place {
        var start = 0
        for _ in 1..<number { start = (stream[start...].firstIndex(of: 0x0A) ?? stream.count) + 1 }
        let end = stream[start...].firstIndex(of: 0x0A) ?? stream.count
        return ScriptFile.place(in: UndecodableLine(number: number, offset: start, bytes: Array(stream[start..<end])))
    }

    @Test func aStreamsBadLineIsPlacedAsInAFile() {
        let streams: [([UInt8], Int)] = [
            (Array("echo before\necho \"caf".utf8) + [0xE9] + Array("\"\necho after\n".utf8), 2),
            (Array("echo a\necho b\necho 書".utf8) + [0xFF], 3),
            ([0xEF, 0xBB, 0xBF] + Array("echo ".utf8) + [0x80], 1),
            ([0x61, 0xC0, 0xAF], 1),
        ]
        for (stream, line) in streams {
            #expect(streamPlace(stream, line: line) == filePlace(stream), "\(stream)")
        }
        #expect(streamPlace(streams[0].0, line: 2) == ScriptFile.Place(line: 2, column: 10, offset: 21, byte: 0xE9))
    }

    @Test func theRefusalIsOneSentenceWithoutTheBytes() {
        let line = UndecodableLine(number: 2, offset: 12, bytes: Array("echo \"caf".utf8) + [0xE9, 0x22])
        let error = ShellError.notUTF8(line, in: "<stdin>")
        #expect(error.status == .usage)
        #expect(error.message == "<stdin>:2:10: not UTF-8 at byte 21 (0xE9); scripts are UTF-8 text")
    }

    /// A reader of `bytes` through a pipe (written whole and closed first: they fit its buffer).
    func pipeReader(_ bytes: [UInt8]) throws -> (PlainLineReader, Int32) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw POSIXError(.EIO) }
        let written = bytes.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
        close(descriptors[1])
        #expect(written == bytes.count)
        return (PlainLineReader(fileDescriptor: descriptors[0], isComplete: { _ in true }), descriptors[0])
    }

    static let input = Array("echo one\necho \"caf".utf8) + [0xE9] + Array("\"\necho two\n".utf8)

    @Test func pipedCommandsStopAtTheBadLine() async throws {
        try await withShell { harness in
            let (reader, descriptor) = try pipeReader(Self.input)
            defer { close(descriptor) }
            #expect(await harness.shell.runStream(reader) == ExitStatus.usage.rawValue)
            #expect(harness.out == "one\n", "\(harness.out)")
            #expect(
                harness.err.contains("<stdin>:2:10: not UTF-8 at byte 18 (0xE9); scripts are UTF-8 text"),
                "\(harness.err)"
            )
        }
    }

    @Test func thePromptRefusesTheBadLineAndGoesOn() async throws {
        try await withShell { harness in
            let (reader, descriptor) = try pipeReader(Self.input)
            defer { close(descriptor) }
            _ = await harness.shell.runInteractive(reader: reader)
            #expect(harness.out.contains("one\n") && harness.out.contains("two\n"), "\(harness.out)")
            #expect(!harness.out.contains("caf"), "\(harness.out)")
            #expect(
                harness.err.contains("<stdin>:2:10: not UTF-8 at byte 18 (0xE9); scripts are UTF-8 text"),
                "\(harness.err)"
            )
        }
    }
}
