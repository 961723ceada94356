import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird

extension JobRoutes {
    static func registerBatch<Context: RequestContext>(
        on router: Router<Context>,
        engine source: JobEngineSource,
        clientIP: @escaping @Sendable (Request, Context) -> String
    ) {
        let handler: @Sendable (Request, Context) async -> Response = { request, context in
            let started = ContinuousClock.now
            let request = request
            let parsed: BatchEnrichRequest
            switch await decodeBatch(request.body, configuration: source.configuration) {
            case .failure(let rejection): return rejection.response
            case .success(let body): parsed = body
            }
            guard let engine = source.engineIfAvailable else { return JobEngineSource.unavailable }
            do throws(JobEngine.SubmissionError) {
                let (record, _) = try await engine.submitBatch(
                    items: parsed.items,
                    clientJobID: parsed.jobId,
                    owner: clientIP(request, context)
                )
                let accepted = BatchJobAccepted(
                    jobId: record.id,
                    authToken: record.authToken,
                    token: record.authToken,
                    totalCount: record.totalCount,
                    processedCount: record.processedCount,
                    sseUrl: ImportAccepted.defaultSSEURL(jobId: record.id),
                    statusUrl: ImportAccepted.defaultStatusURL(jobId: record.id)
                )
                return JobHTTP.success(accepted, status: .accepted, started: started)
            } catch {
                return error.response
            }
        }
        router.post(RouterPath(APIPath.batchEnrichmentOld)) { request, context in await handler(request, context) }
        router.post(RouterPath(APIPath.batchEnrichment)) { request, context in await handler(request, context) }
    }

    /// The request, or the 400 that answers it.
    static func decodeBatch(
        _ body: RequestBody,
        configuration config: JobEngineConfiguration
    ) async -> Result<BatchEnrichRequest, BatchRejection> {
        let bytes: ByteBuffer
        do {
            bytes = try await CSVUpload.collect(body, limit: config.maxBatchBodyBytes)
        } catch CSVUpload.Failure.tooLarge(let limit) {
            return .failure(
                BatchRejection(
                    JobHTTP.error(
                        .batchTooLarge,
                        "the request body is larger than \(CSVImportParser.grouped(limit)) bytes"
                    )
                )
            )
        } catch {
            return .failure(BatchRejection(JobHTTP.error(.invalidRequest, "could not read the request body")))
        }
        return validateBatch(Data(bytes.readableBytesView), maxItems: config.maxBatchSize).mapError {
            BatchRejection(JobHTTP.error($0.code, $0.message))
        }
    }

    /// A refused batch request (the response to send).
    struct BatchRejection: Error {
        var response: Response
        init(_ response: Response) { self.response = response }
    }

    /// Why a batch body is refused: code and message. Pure.
    struct BatchProblem: Error, Equatable {
        var code: ErrorCode
        var message: String
    }

    static func validateBatch(_ data: Data, maxItems: Int) -> Result<BatchEnrichRequest, BatchProblem> {
        guard !data.isEmpty else {
            return .failure(
                BatchProblem(
                    code: .invalidRequest,
                    message: "the request body is empty; send {books: [...], jobId} or {barcodes: [...]}"
                )
            )
        }
        let request: BatchEnrichRequest
        do {
            request = try JSONCoding.decoder().decode(BatchEnrichRequest.self, from: data)
        } catch {
            return .failure(
                BatchProblem(code: .invalidRequest, message: "invalid JSON body: \(DecodingFailure(error))")
            )
        }
        guard request.books != nil || request.barcodes != nil else {
            return .failure(
                BatchProblem(
                    code: .invalidRequest,
                    message: "the body needs 'books' ([{title, author?, isbn?}]) or 'barcodes' ([isbn])"
                )
            )
        }
        if let jobId = request.jobId, !isValidJobID(jobId) {
            return .failure(
                BatchProblem(
                    code: .invalidRequest,
                    message: "jobId must be 1–128 characters of letters, digits, '.', '_', ':' or '-'"
                )
            )
        }
        switch request.sizeError(maxItems: maxItems) {
        case .some(.emptyBatch):
            return .failure(BatchProblem(code: .emptyBatch, message: "the batch has no books"))
        case .some(let code):
            return .failure(
                BatchProblem(
                    code: code,
                    message: "the batch has \(request.items.count) books; at most \(maxItems) are allowed"
                )
            )
        case .none:
            return .success(request)
        }
    }
}
