import Foundation
import Testing

@testable import BTSShell

#if canImport(Glibc)
import Glibc
#endif

/// How a script's bytes become text: UTF-8 or refused with the first bad byte's place, a leading
/// byte-order mark skipped; and what is read at all (regular files; a FIFO refused without blocking).
@Suite("ScriptFile: reading a script")
struct ScriptFileReadingTests {
    func place(_ bytes: [UInt8]) -> ScriptFile.Place? {
        do throws(ScriptFile.Failure) {
            _ = try ScriptFile.decode(bytes)
            return nil
        } catch {
            return error.place
        }
    }

    @Test func theFirstByteThatIsNotUTF8IsPlaced() throws {
        let latin1 = Array("echo \"caf".utf8) + [0xE9, 0x22, 0x0A]
        #expect(place(latin1) == ScriptFile.Place(line: 1, column: 10, offset: 9, byte: 0xE9))
        // Line 3; the column counts the wide character before it as 2.
        let later = Array("echo a\necho b\necho 書".utf8) + [0xFF]
        #expect(place(later) == ScriptFile.Place(line: 3, column: 8, offset: 22, byte: 0xFF))
        // Overlong forms, surrogates, past U+10FFFF, a sequence cut short at the end.
        #expect(place([0x61, 0xC0, 0xAF])?.offset == 1)
        #expect(place([0xED, 0xA0, 0x80])?.offset == 0)
        #expect(place([0xF4, 0x90, 0x80, 0x80])?.offset == 0)
        #expect(place(Array("ok ".utf8) + [0xE2, 0x82])?.offset == 3)
        #expect(place(Array("€ 𝄞 é\n".utf8)) == nil)
        let failure = ScriptFile.Failure.notUTF8(ScriptFile.Place(line: 1, column: 10, offset: 9, byte: 0xE9))
        #expect(failure.sentence("a.bts") == "a.bts:1:10: not UTF-8 at byte 9 (0xE9); scripts are UTF-8 text")
        #expect(
            ScriptFile.Failure.notRegular(kind: "a FIFO").sentence("f.bts", "cannot read script")
                == "cannot read script 'f.bts': it is a FIFO, not a regular file"
        )
    }

    @Test func aByteOrderMarkIsSkippedAndRemembered() throws {
        let marked = try ScriptFile.decode([0xEF, 0xBB, 0xBF] + Array("echo hi\n".utf8))
        #expect(marked == ScriptFile.Contents(text: "echo hi\n", byteOrderMark: true))
        let plain = try ScriptFile.decode(Array("echo hi\n".utf8))
        #expect(plain == ScriptFile.Contents(text: "echo hi\n", byteOrderMark: false))
        // A bad byte after a mark: its offset counts the mark, its column does not.
        #expect(place([0xEF, 0xBB, 0xBF, 0x61, 0x80]) == ScriptFile.Place(line: 1, column: 2, offset: 4, byte: 0x80))
    }

    @Test func aFIFOIsRefusedWithoutBlockingAndAWalkPassesItOver() throws {
        let directory = try makeTempDirectory("script-fifo")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("f.bts").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // (No writer ever comes: a read that waited for one would hang here, not fail.)
        #expect(throws: ScriptFile.Failure.notRegular(kind: "a FIFO")) { try ScriptFile.read(fifo) }
        #expect(throws: ScriptFile.Failure.directory) { try ScriptFile.read(directory.path) }
        try Data("echo ok\n".utf8).write(to: directory.appendingPathComponent("ok.bts"))
        #expect(try ScriptFile.discover([directory.path]) == [directory.appendingPathComponent("ok.bts").path])
        #expect(throws: ShellError.self) { try ScriptFile.discover([fifo]) }
    }
}
