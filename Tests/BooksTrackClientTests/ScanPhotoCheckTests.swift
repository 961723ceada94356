import BooksTrackClient
import BooksTrackContract
import Dispatch
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `scan`'s check of its photos refuses what is not a regular file at once, naming what it is
/// (a FIFO blocked the check until Ctrl-C; a directory was "not a JPEG, PNG or WebP image").
@Suite("scan: photos that are not files")
struct ScanPhotoCheckTests {
    static let jpegHead: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01]

    /// The check's refusal, run on a thread of its own; nil when it accepted. A check still blocked
    /// after the safety deadline is a failure (and `unblock` lets it end).
    static func refusal(_ url: URL, unblock: @escaping @Sendable () -> Void = {}) -> String? {
        let done = DispatchSemaphore(value: 0)
        let box = SynchronizedBox<String?>(nil)
        Thread.detachNewThread {
            do throws(BooksTrackError) {
                _ = try BooksTrackAPI.checkedPhotos([url])
            } catch {
                let message = error.message
                box.mutate { $0 = message }
            }
            done.signal()
        }
        if done.wait(timeout: .now() + .seconds(TestTime.seconds(30))) == .timedOut {
            Issue.record("the check of \(url.path) blocked")
            unblock()
            done.wait()
        }
        return box.value
    }

    @Test func aFIFOIsRefusedAtOnce() throws {
        let dir = try makeTempDirectory("scan-fifo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("shelf.jpg")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let message = Self.refusal(fifo) {
            // Before the fix the check waited for a writer: give it one so the thread ends.
            let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        #expect(
            message
                == "'\(fifo.path)' is a pipe (FIFO), not a photo file; save the photo to a file and scan that. Nothing was uploaded."
        )
    }

    @Test func aDirectoryIsNamedAsOne() throws {
        let dir = try makeTempDirectory("scan-dir")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("photos.jpg")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let message = Self.refusal(folder)
        #expect(message?.contains("is a directory, not a photo file") == true, "\(message ?? "accepted")")
    }

    /// `/dev/stdin` fed by a pipe (`cat shelf.jpg | bts -c 'scan /dev/stdin'`): refused as a pipe
    /// (it cannot be read twice, for the check and for the upload), not "not a JPEG".
    @Test func aPipeOnAPathIsNamedAsOne() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        _ = Self.jpegHead.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        let message = Self.refusal(URL(fileURLWithPath: "/proc/self/fd/\(ends[0])"))
        #expect(message?.contains("is a pipe (FIFO), not a photo file") == true, "\(message ?? "accepted")")
    }

    @Test func aRegularJPEGStillPasses() throws {
        let dir = try makeTempDirectory("scan-file")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("shelf.jpg")
        try Data(Self.jpegHead + [UInt8](repeating: 0, count: 100)).write(to: file)
        #expect(Self.refusal(file) == nil)
        let files = try BooksTrackAPI.checkedPhotos([file])
        #expect(files.first?.contentType == "image/jpeg")
    }
}
