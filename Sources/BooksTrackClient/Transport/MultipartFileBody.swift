import Foundation
import NIOCore
import NIOFoundationCompat

/// A `multipart/form-data` body with one file part, streamed from disk in fixed-size chunks
/// (never the whole file in memory). Its length is known up front (file size plus framing), so the
/// upload carries `Content-Length`.
struct MultipartFileBody: Sendable {
    let fileURL: URL
    let fieldName: String
    let fileName: String
    let contentType: String
    let boundary: String
    let fileSize: Int64
    let chunkSize: Int

    /// Checks the file and computes the framing. Throws `BooksTrackError.invalidInput` for a missing
    /// or unreadable file.
    init(
        fileURL: URL, fieldName: String = "file", contentType: String = "text/csv", chunkSize: Int = 64 * 1024,
        boundary: String = "bts-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    ) throws(BooksTrackError) {
        let path = fileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .invalidInput("No such file: \(path)")
        }
        guard !isDirectory.boolValue else { throw .invalidInput("\(path) is a directory, not a CSV file") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .invalidInput("Cannot read \(path)") }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let size = (attributes?[.size] as? NSNumber)?.int64Value else {
            throw .invalidInput("Cannot read the size of \(path)")
        }
        self.fileURL = fileURL
        self.fieldName = fieldName
        self.fileName = fileURL.lastPathComponent
        self.contentType = contentType
        self.boundary = boundary
        self.fileSize = size
        self.chunkSize = max(1024, chunkSize)
    }

    /// `multipart/form-data; boundary=…`.
    var contentTypeHeader: String { "multipart/form-data; boundary=\(boundary)" }

    var prefix: [UInt8] {
        let safeName = fileName.replacingOccurrences(of: "\"", with: "_").replacingOccurrences(of: "\r", with: "")
            .replacingOccurrences(of: "\n", with: "")
        return Array(
            ("--\(boundary)\r\n"
                + "Content-Disposition: form-data; name=\"\(fieldName)\"; filename=\"\(safeName)\"\r\n"
                + "Content-Type: \(contentType)\r\n\r\n").utf8)
    }

    var suffix: [UInt8] { Array("\r\n--\(boundary)--\r\n".utf8) }

    /// The exact number of bytes the body will produce.
    var contentLength: Int64 { Int64(prefix.count) + fileSize + Int64(suffix.count) }

    /// The body as an async sequence of chunks (a fresh file handle per iteration, so retries re-read).
    var chunks: Chunks { Chunks(body: self) }

    struct Chunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let body: MultipartFileBody

        func makeAsyncIterator() -> Iterator { Iterator(body: body) }

        struct Iterator: AsyncIteratorProtocol {
            enum Phase { case prefix, file, suffix, done }
            let body: MultipartFileBody
            var phase = Phase.prefix
            var handle: FileHandle?
            var sent: Int64 = 0

            init(body: MultipartFileBody) { self.body = body }

            mutating func next() async throws -> ByteBuffer? {
                try Task.checkCancellation()
                switch phase {
                case .prefix:
                    phase = .file
                    return ByteBuffer(bytes: body.prefix)
                case .file:
                    if handle == nil {
                        do { handle = try FileHandle(forReadingFrom: body.fileURL) } catch {
                            throw BooksTrackError.invalidInput("Cannot open \(body.fileURL.path): \(error)")
                        }
                    }
                    let left = body.fileSize - sent
                    if left > 0, let handle {
                        let want = Int(Swift.min(Int64(body.chunkSize), left))
                        let data = try handle.read(upToCount: want) ?? Data()
                        guard !data.isEmpty else {
                            throw BooksTrackError.invalidInput("\(body.fileURL.path) shrank while uploading")
                        }
                        sent += Int64(data.count)
                        return ByteBuffer(data: data)
                    }
                    try? handle?.close()
                    handle = nil
                    phase = .done
                    return ByteBuffer(bytes: body.suffix)
                case .suffix, .done:
                    return nil
                }
            }
        }
    }
}
