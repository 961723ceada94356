import BooksTrackContract
import Foundation
import NIOHTTP1

extension JobLauncher {
    /// A copy of the CSV at `fileURL` with its ISBN-10 cells as ISBN-13 (`CSVISBNRewriter`), or nil
    /// when nothing changes (or the file is over the `JobLimits.maxCSVBytes` the server takes, or cannot be read).
    static func withISBN13Cells(_ fileURL: URL) -> URL? {
        guard
            let size = (try? FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?.intValue,
            size <= JobLimits.maxCSVBytes, let data = FileManager.default.contents(atPath: fileURL.path),
            let rewritten = CSVISBNRewriter.rewrite(Array(data))
        else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bts-upload-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
            let copy = directory.appendingPathComponent(fileURL.lastPathComponent)
            guard
                FileManager.default.createFile(
                    atPath: copy.path,
                    contents: Data(rewritten),
                    attributes: [.posixPermissions: 0o600]
                )
            else { throw CocoaError(.fileWriteUnknown) }
            return copy
        } catch {
            try? FileManager.default.removeItem(at: directory)
            return nil
        }
    }

    /// `POST /api/v2/imports` — uploads a CSV as `multipart/form-data` (part `file`), streamed from
    /// disk in 64 KB chunks with a computed `Content-Length`; the file is never read whole.
    /// The upload creates a job, so it is not repeated after a partial attempt.
    package func importCSV(fileAt fileURL: URL) async throws(BooksTrackError) -> APIResponse<ImportAccepted> {
        if let problem = TextFileCheck.problem(inFileAt: fileURL) {
            throw BooksTrackError.invalidInput("Cannot import '\(fileURL.lastPathComponent)': \(problem.message).")
        }
        // ISBN-10 cells go as ISBN-13 (no router takes an ISBN-10 ending in X): a rewritten copy of the
        // file, under the same name in a private temporary directory, is uploaded instead.
        let rewritten = Self.withISBN13Cells(fileURL)
        defer { if let rewritten { try? FileManager.default.removeItem(at: rewritten.deletingLastPathComponent()) } }
        let upload = try MultipartFileBody(fileURL: rewritten ?? fileURL)
        // Slow links: one extra second per MB on top of the ordinary deadline.
        let timeout = configuration.timeout + .seconds(max(0, upload.fileSize / (1024 * 1024)))
        if await client.dialect == .v3 { return try await client.v3Import(upload, timeout: timeout) }
        var spec = RequestSpec(.POST, APIPath.imports)
        spec.body = .multipart(upload)
        spec.createsWork = true
        spec.offering = "CSV import"
        spec.timeout = timeout
        spec.notFoundMessage = "This server has no CSV import route."
        let requestedAt = configuration.now()
        let accepted = try await client.call(ImportAccepted.self, spec)
        await client.trackJobToken(accepted.value.jobId, token: accepted.value.authToken, requestedAt: requestedAt)
        return accepted
    }
}
