import Foundation
import Testing

@testable import BTSShell

#if canImport(Glibc)
import Glibc
#endif

/// The one writer of a user's file, on real files in a temp directory: a link's target written (the
/// link kept), the mode and owner kept, never widened, read-only refused (for root too), FIFOs and
/// devices by the caller's choice, every refusal naming its cause, nothing left behind.
@Suite("UserFile: writing a user's file")
struct UserFileTests {
    let directory: URL

    init() throws { directory = try makeTempDirectory("user-file") }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func make(_ name: String, _ text: String, mode: mode_t) throws -> String {
        let file = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        #expect(chmod(file, mode) == 0)
        return file
    }

    func mode(_ file: String) -> mode_t {
        var status = stat()
        return lstat(file, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    func kind(_ file: String) -> mode_t {
        var status = stat()
        return lstat(file, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    func text(_ file: String) -> String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "<unreadable>" }

    func failure(_ bytes: String, _ file: String, _ options: UserFile.Options) -> UserFile.Failure? {
        do throws(UserFile.Failure) {
            try UserFile.write(Array(bytes.utf8), to: file, options)
            return nil
        } catch {
            return error
        }
    }

    /// No temporary file is left in the directory.
    func expectNoTemporaries() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.contains(".tmp-") }, "\(names)")
    }

    @Test func aLinksTargetIsWrittenWithItsModeAndTheLinkStays() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = try make("target.bts", "old\n", mode: 0o600)
        #expect(symlink("target.bts", path("link.bts")) == 0)
        // A chain of links, one relative to a directory of its own.
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        #expect(symlink("../link.bts", path("sub/again.bts")) == 0)
        #expect(failure("new\n", path("sub/again.bts"), .script) == nil)
        #expect(text(target) == "new\n")
        #expect(mode(target) == 0o600, "the target's mode is kept")
        #expect(kind(path("link.bts")) == S_IFLNK && kind(path("sub/again.bts")) == S_IFLNK, "links stay links")
        #expect(mode(path("sub/again.bts")) == 0o777, "(a link's own mode, untouched)")
        try expectNoTemporaries()
    }

    @Test func theModeIsKeptAndNeverWidened() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try make("s.bts", "x\n", mode: 0o640)
        #expect(failure("y\n", script, .script) == nil)
        #expect(mode(script) == 0o640 && text(script) == "y\n")
        let exported = try make("e.csv", "x\n", mode: 0o664)
        #expect(failure("notes\n", exported, UserFile.Options(isPrivate: true)) == nil)
        #expect(mode(exported) == 0o600, "private data keeps only the owner's bits")
    }

    @Test func aNewFileHasTheUmasksModeOr0600WhenPrivate() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // The process's umask, read without setting it (tests beside this one create files).
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        let mask = try #require(line.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) })
        #expect(failure("r\n", path("new.json"), .report) == nil)
        #expect(mode(path("new.json")) == 0o666 & ~mask)
        #expect(failure("p\n", path("new.csv"), UserFile.Options(isPrivate: true)) == nil)
        #expect(mode(path("new.csv")) == 0o600)
        // A link to where no file is yet: the file is made where the link points.
        #expect(symlink("made.json", path("dangling.json")) == 0)
        #expect(failure("m\n", path("dangling.json"), .report) == nil)
        #expect(text(path("made.json")) == "m\n" && kind(path("dangling.json")) == S_IFLNK)
    }

    @Test func aReadOnlyFileIsRefusedForRootToo() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try make("ro.bts", "keep\n", mode: 0o444)
        let refusal = failure("lost\n", file, .script)
        #expect(refusal == .readOnly(mode: 0o444))
        #expect(refusal?.reason == "it is read-only (mode 0444)")
        #expect(text(file) == "keep\n" && mode(file) == 0o444)
        #expect(symlink("ro.bts", path("ro-link.bts")) == 0)
        #expect(failure("lost\n", path("ro-link.bts"), .script) == .readOnly(mode: 0o444), "through a link as well")
        try expectNoTemporaries()
    }

    @Test func directoriesAndMissingOnesAreNamed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: true)
        #expect(failure("x", path("dir"), .report) == .directory)
        #expect(failure("x", path("nowhere/r.json"), .script) == .noDirectory(path("nowhere")))
        _ = try make("blocker", "a file\n", mode: 0o644)
        #expect(failure("x", path("blocker/r.json"), .report) == .notADirectory(path("blocker")))
        #expect(failure("x", path("blocker/r.json"), .script) == .notADirectory(path("blocker")))
        #expect(UserFile.Failure.notADirectory("blocker").reason == "'blocker' is not a directory")
        // A report's directories are made.
        #expect(failure("deep\n", path("a/b/c/r.json"), .report) == nil)
        #expect(text(path("a/b/c/r.json")) == "deep\n")
        #expect(symlink("loop", path("loop")) == 0)
        #expect(failure("x", path("loop"), .report) == .system(ELOOP))
    }

    @Test func aFIFOIsRefusedOrWrittenToWithoutWaiting() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = path("fifo.json")
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(failure("x", fifo, .script) == .notRegular(kind: "a FIFO"))
        // No reader: refused at once, not waited for.
        #expect(failure("x", fifo, .report) == .noReader)
        // With a reader, the report goes through it.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        #expect(failure("through\n", fifo, .report) == nil)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &buffer, buffer.count)
        #expect(count == 8 && String(decoding: buffer[0..<max(0, count)], as: UTF8.self) == "through\n")
        #expect(kind(fifo) == S_IFIFO, "still a FIFO")
    }

    @Test func aFullDeviceSaysSo() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try #require(FileManager.default.fileExists(atPath: "/dev/full"))
        #expect(failure("x", "/dev/full", .report) == .system(ENOSPC))
        #expect(UserFile.Failure.system(ENOSPC).reason == "no space left on the device")
        #expect(failure("x", "/dev/full", .script) == .notRegular(kind: "a device"))
        #expect(kind("/dev/full") == S_IFCHR)
    }

    @Test func descriptorPathsAreStreams() {
        #expect(FileDescriptorPath.descriptor(of: "/dev/stdout") == 1)
        #expect(FileDescriptorPath.descriptor(of: "/dev/fd/63") == 63)
        #expect(FileDescriptorPath.descriptor(of: "/proc/self/fd/3") == 3)
        #expect(FileDescriptorPath.descriptor(of: "/dev/fd/+3") == nil)
        #expect(FileDescriptorPath.descriptor(of: "/dev/fd/") == nil)
        #expect(FileDescriptorPath.descriptor(of: "/dev/full") == nil)
        #expect(failure("x", "/dev/stdout", .script) == .notRegular(kind: "a stream (/dev/stdout)"))
        try? FileManager.default.removeItem(at: directory)
    }
}
