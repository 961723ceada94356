import BooksTrackContract
import Foundation
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

extension JobLauncher {
    /// Starts a bookshelf scan of 1–5 photos (JPEG, PNG or WebP, at most 10 MB each and 50 MB
    /// together): `POST /v3/jobs/scans` (multipart `photos[]`, bendv3 `src/api-v3/jobs/scans.ts` @
    /// 0077bbc) on v3, `POST /v1/scan/bookshelf` on a v1-era server. Every photo is checked before
    /// anything is sent; the job is followed like the others (`watch`), its books read from its results.
    package func scan(photos: [URL]) async throws(BooksTrackError) -> APIResponse<ImportAccepted> {
        let files = try Self.checkedPhotos(photos)
        let upload = try MultipartFileBody(files: files, fieldName: ScanPhotos.fieldName)
        let v3 = await client.dialect == .v3
        var spec = RequestSpec(.POST, v3 ? APIPath.v3Scans : APIPath.bookshelfScan)
        spec.body = .multipart(upload)
        spec.createsWork = true
        spec.offering = "bookshelf scans"
        // Slow links: one extra second per MB on top of the ordinary deadline.
        spec.timeout = configuration.timeout + .seconds(max(0, upload.fileSize / 1_000_000))
        let requestedAt = configuration.now()
        let accepted = try await client.call(V3JobAccepted.self, spec)
        await client.adopt(job: accepted.value, pipeline: .bookshelfScan)
        if !v3 {
            await client.trackJobToken(accepted.value.jobId, token: accepted.value.token, requestedAt: requestedAt)
        }
        return accepted.map { ImportAccepted(jobId: $0.jobId, authToken: $0.token, sseUrl: $0.streamUrl) }
    }

    /// The photos with their media types, or the first reason one cannot be sent: a count outside
    /// 1–5, a missing or unreadable file, one that is not JPEG, PNG or WebP (by its first bytes),
    /// one over 10 MB, or more than 50 MB together. Nothing is uploaded then.
    package static func checkedPhotos(_ photos: [URL]) throws(BooksTrackError) -> [(url: URL, contentType: String)] {
        guard ScanPhotos.count.contains(photos.count) else {
            throw .invalidInput(
                photos.isEmpty
                    ? "Give at least one photo to scan."
                    : "A scan takes at most \(ScanPhotos.count.upperBound) photos (\(photos.count) given); nothing was uploaded.",
                code: .batchTooLarge
            )
        }
        var files: [(url: URL, contentType: String)] = []
        var total = 0
        for url in photos {
            let name = url.lastPathComponent
            let (head, size) = try Self.photoHead(url)
            guard let format = PhotoFormat(sniffing: head) else {
                throw .invalidInput(
                    "'\(name)' is not a JPEG, PNG or WebP image; nothing was uploaded.",
                    code: "INVALID_FILE"
                )
            }
            guard size <= ScanPhotos.maxPhotoBytes else {
                throw .invalidInput(
                    "'\(name)' is \(Self.megabytes(size)); a photo may be at most 10 MB. Nothing was uploaded.",
                    code: .fileTooLarge
                )
            }
            total += size
            files.append((url, format.mediaType))
        }
        guard total <= ScanPhotos.maxTotalBytes else {
            throw .invalidInput(
                "The photos come to \(Self.megabytes(total)); a scan takes at most 50 MB together. Nothing was uploaded.",
                code: .fileTooLarge
            )
        }
        return files
    }

    /// The first 12 bytes and the size of a regular file. Anything else is refused at once, named:
    /// a FIFO or a pipe (`/dev/stdin` from `|`) would block the check and then be read twice, a
    /// directory or a device is no photo. Opened without blocking (a FIFO without a writer).
    static func photoHead(_ url: URL) throws(BooksTrackError) -> (head: Data, size: Int) {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .invalidInput("Cannot read '\(url.path)': no such file or not readable; nothing was uploaded.")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .invalidInput("Cannot read '\(url.path)': no such file or not readable; nothing was uploaded.")
        }
        if let kind = Self.kind(of: status.st_mode) {
            throw .invalidInput(
                "'\(url.path)' is \(kind), not a photo file; save the photo to a file and scan that. Nothing was uploaded.",
                code: "INVALID_FILE"
            )
        }
        var head = [UInt8](repeating: 0, count: 12)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 12) }
        return (Data(head.prefix(max(0, count))), Int(status.st_size))
    }

    /// What a file that is not a regular file is, in words (nil for a regular file).
    static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a pipe (FIFO)"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
