import BooksTrackContract
import Foundation

extension BooksTrackAPI {
    /// `POST /api/v2/imports` — uploads a CSV as `multipart/form-data` (part `file`), streamed from
    /// disk in 64 KB chunks with a computed `Content-Length`; the file is never read whole.
    /// The upload creates a job, so it is not repeated after a partial attempt.
    public func importCSV(fileAt fileURL: URL) async throws(BooksTrackError) -> APIResponse<ImportAccepted> {
        if let problem = TextFileCheck.problem(inFileAt: fileURL) {
            throw BooksTrackError.invalidInput("Cannot import '\(fileURL.lastPathComponent)': \(problem.message).")
        }
        let upload = try MultipartFileBody(fileURL: fileURL)
        // Slow links: one extra second per MB on top of the ordinary deadline.
        let timeout = configuration.timeout + .seconds(max(0, upload.fileSize / (1024 * 1024)))
        if dialect == .v3 { return try await v3Import(upload, timeout: timeout) }
        var spec = RequestSpec(.POST, "/api/v2/imports")
        spec.body = .multipart(upload)
        spec.createsWork = true
        spec.offering = "CSV import"
        spec.timeout = timeout
        spec.notFoundMessage = "This server has no CSV import route."
        let requestedAt = configuration.now()
        let accepted = try await call(ImportAccepted.self, spec)
        trackJobToken(accepted.value.jobId, token: accepted.value.authToken, requestedAt: requestedAt)
        return accepted
    }
}
