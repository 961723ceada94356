import Foundation
import NIOCore
import NIOFoundationCompat

/// A `multipart/form-data` body of one or more file parts (a CSV's `file`, a scan's `photos[]`),
/// streamed from disk in fixed-size chunks (never a whole file in memory). Its length is known up
/// front (file sizes plus framing), so the upload carries `Content-Length`.
struct MultipartFileBody: Sendable {
    /// One file part.
    struct Part: Sendable {
        let fileURL: URL
        let fileName: String
        let contentType: String
        let fileSize: Int64
    }

    let parts: [Part]
    let fieldName: String
    let boundary: String
    let chunkSize: Int

    /// One file (`fieldName` defaults to the CSV import's `file`).
    init(
        fileURL: URL,
        fieldName: String = "file",
        contentType: String = "text/csv",
        chunkSize: Int = 64 * 1024,
        boundary: String = MultipartFileBody.newBoundary()
    ) throws(BooksTrackError) {
        try self.init(files: [(fileURL, contentType)], fieldName: fieldName, chunkSize: chunkSize, boundary: boundary)
    }

    /// Several files under one field name, in order. Throws `BooksTrackError.invalidInput` for a
    /// missing or unreadable file.
    init(
        files: [(url: URL, contentType: String)],
        fieldName: String,
        chunkSize: Int = 64 * 1024,
        boundary: String = MultipartFileBody.newBoundary()
    ) throws(BooksTrackError) {
        var parts: [Part] = []
        for (url, type) in files {
            let path = url.path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .invalidInput("No such file: \(path)")
            }
            guard !isDirectory.boolValue else { throw .invalidInput("\(path) is a directory, not a file") }
            guard FileManager.default.isReadableFile(atPath: path) else { throw .invalidInput("Cannot read \(path)") }
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            guard let size = (attributes?[.size] as? NSNumber)?.int64Value else {
                throw .invalidInput("Cannot read the size of \(path)")
            }
            parts.append(Part(fileURL: url, fileName: url.lastPathComponent, contentType: type, fileSize: size))
        }
        self.parts = parts
        self.fieldName = fieldName
        self.boundary = boundary
        self.chunkSize = max(1024, chunkSize)
    }

    static func newBoundary() -> String {
        "bts-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// The first file (the single-file form's).
    var fileURL: URL { parts.first?.fileURL ?? URL(fileURLWithPath: "/dev/null") }
    /// The files' names, comma-separated (for traces).
    var fileName: String { parts.map(\.fileName).joined(separator: ", ") }
    /// The files' bytes together.
    var fileSize: Int64 { parts.reduce(0) { $0 + $1.fileSize } }

    /// `multipart/form-data; boundary=…`.
    var contentTypeHeader: String { "multipart/form-data; boundary=\(boundary)" }

    func prefix(of part: Part, first: Bool) -> [UInt8] {
        let safeName = part.fileName.replacingOccurrences(of: "\"", with: "_").replacingOccurrences(of: "\r", with: "")
            .replacingOccurrences(of: "\n", with: "")
        return Array(
            ((first ? "" : "\r\n") + "--\(boundary)\r\n"
                + "Content-Disposition: form-data; name=\"\(fieldName)\"; filename=\"\(safeName)\"\r\n"
                + "Content-Type: \(part.contentType)\r\n\r\n").utf8
        )
    }

    var suffix: [UInt8] { Array("\r\n--\(boundary)--\r\n".utf8) }

    /// The exact number of bytes the body will produce.
    var contentLength: Int64 {
        var total = Int64(suffix.count)
        for (i, part) in parts.enumerated() { total += Int64(prefix(of: part, first: i == 0).count) + part.fileSize }
        return total
    }

    /// The body as an async sequence of chunks (fresh file handles per iteration, so retries re-read).
    var chunks: Chunks { Chunks(body: self) }

    struct Chunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let body: MultipartFileBody

        func makeAsyncIterator() -> Iterator { Iterator(body: body) }

        struct Iterator: AsyncIteratorProtocol {
            enum Phase { case prefix, file, suffix, done }
            let body: MultipartFileBody
            var phase = Phase.prefix
            var index = 0
            var handle: FileHandle?
            var sent: Int64 = 0

            init(body: MultipartFileBody) { self.body = body }

            mutating func next() async throws -> ByteBuffer? {
                try Task.checkCancellation()
                switch phase {
                case .prefix:
                    guard index < body.parts.count else {
                        phase = .done
                        return ByteBuffer(bytes: body.suffix)
                    }
                    phase = .file
                    return ByteBuffer(bytes: body.prefix(of: body.parts[index], first: index == 0))
                case .file:
                    let part = body.parts[index]
                    if handle == nil {
                        do { handle = try FileHandle(forReadingFrom: part.fileURL) } catch {
                            throw BooksTrackError.invalidInput("Cannot open \(part.fileURL.path): \(error)")
                        }
                    }
                    let left = part.fileSize - sent
                    if left > 0, let handle {
                        let want = Int(Swift.min(Int64(body.chunkSize), left))
                        let data = try handle.read(upToCount: want) ?? Data()
                        guard !data.isEmpty else {
                            throw BooksTrackError.invalidInput("\(part.fileURL.path) shrank while uploading")
                        }
                        sent += Int64(data.count)
                        return ByteBuffer(data: data)
                    }
                    try? handle?.close()
                    handle = nil
                    sent = 0
                    index += 1
                    phase = .prefix
                    return try await next()
                case .suffix, .done:
                    return nil
                }
            }
        }
    }
}
