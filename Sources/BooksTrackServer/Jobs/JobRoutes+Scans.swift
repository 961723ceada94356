import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import MultipartKit

extension JobRoutes {
    /// The seeds' v1-era scan: `POST /v1/scan/bookshelf` (multipart `photos[]`) → 202 `{jobId, token}`;
    /// `GET /v1/scan/results/{id}` → the detected books. Status and progress at the job routes.
    static func registerScans<Context: RequestContext>(
        on router: Router<Context>,
        engine source: JobEngineSource,
        clientIP: @escaping @Sendable (Request, Context) -> String
    ) {
        router.post(RouterPath(APIPath.bookshelfScan)) { request, context -> Response in
            let started = ContinuousClock.now
            if let refusal = await source.refusal(owner: clientIP(request, context)) { return refusal.earlyResponse }
            let photos: [[UInt8]]
            switch await ScanUpload.photos(of: request) {
            case .success(let read): photos = read
            case .failure(let refusal): return JobHTTP.error(refusal.code, refusal.message)
            }
            let engine = try source.engine()
            do throws(JobEngine.SubmissionError) {
                let record = try await engine.submitScan(photos: photos, owner: clientIP(request, context))
                let accepted = ImportAccepted(jobId: record.id, authToken: record.authToken, token: record.authToken)
                return JobHTTP.success(accepted, status: .accepted, started: started)
            } catch {
                return error.response
            }
        }
        router.get("/v1/scan/results/:id") { _, context -> Response in
            guard let id = jobID(context) else { return JobHTTP.error(.invalidRequest, "malformed job id") }
            return await resultsResponse(engine: try source.engine(), id: id, started: .now)
        }
    }
}

/// A scan's photos read from a multipart body (`photos[]`), checked as every backend checks them
/// (`ScanPhotos`: 1–5, JPEG/PNG/WebP by content, 10 MB each, 50 MB together).
enum ScanUpload {
    struct Refusal: Error {
        var code: ErrorCode
        var message: String
    }

    static func photos(of request: Request) async -> Result<[[UInt8]], Refusal> {
        let type = request.headers[.contentType]
        guard type?.lowercased().contains("multipart/form-data") == true,
            let boundary = type.flatMap({ CSVUpload.boundary(in: $0) })
        else {
            return .failure(
                Refusal(code: .invalidRequest, message: "send the photos as multipart/form-data parts named 'photos[]'")
            )
        }
        let limit = ScanPhotos.maxTotalBytes + CSVUpload.multipartOverhead
        let tooLarge = Refusal(code: .fileTooLarge, message: "the photos come to more than 50 MB together")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            return .failure(tooLarge)
        }
        let photos: [[UInt8]]
        do {
            let body = try await CSVUpload.collect(request.body, limit: limit)
            photos = try CSVUpload.parts(of: body, boundary: boundary)
                .filter { $0.name == ScanPhotos.fieldName }.map { Array($0.body.readableBytesView) }
        } catch CSVUpload.Failure.tooLarge {
            return .failure(tooLarge)
        } catch {
            return .failure(Refusal(code: .invalidRequest, message: "the multipart/form-data body is malformed"))
        }
        guard !photos.isEmpty else {
            return .failure(Refusal(code: .missingParameter, message: "no part named 'photos[]'"))
        }
        guard photos.count <= ScanPhotos.count.upperBound else {
            return .failure(
                Refusal(code: .batchTooLarge, message: "a scan takes at most 5 photos (\(photos.count) sent)")
            )
        }
        for (index, photo) in photos.enumerated() {
            guard photo.count <= ScanPhotos.maxPhotoBytes else {
                return .failure(Refusal(code: .fileTooLarge, message: "photo \(index + 1) is larger than 10 MB"))
            }
            guard PhotoFormat(sniffing: photo) != nil else {
                return .failure(
                    Refusal(code: .invalidRequest, message: "photo \(index + 1) is not a JPEG, PNG or WebP image")
                )
            }
        }
        return .success(photos)
    }
}
