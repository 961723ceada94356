import BooksTrackContract
import Foundation

extension BooksTrackAPI {
    /// Starts this client's jobs and enrichments (``JobLauncher``).
    package nonisolated var launcher: JobLauncher {
        JobLauncher(client: self, configuration: configuration)
    }

    /// The batch routes (docs/contract.md §4): both accept both body forms.
    package enum BatchRoute: Sendable, Hashable {
        /// `POST /api/batch-enrich`
        case batchEnrich
        /// `POST /v1/enrichment/batch`
        case v1

        package var path: String {
            switch self {
            case .batchEnrich: return APIPath.batchEnrichmentOld
            case .v1: return APIPath.batchEnrichment
            }
        }
    }

    /// ``JobLauncher/enrich(isbn:provider:idempotencyKey:)`` of this client's ``launcher``.
    package nonisolated func enrich(
        isbn: String,
        provider: EnrichProvider? = nil,
        idempotencyKey: String? = nil
    ) async throws(BooksTrackError) -> APIResponse<EnrichedBook> {
        try await launcher.enrich(isbn: isbn, provider: provider, idempotencyKey: idempotencyKey)
    }

    /// ``JobLauncher/batchEnrich(books:jobID:route:)`` of this client's ``launcher``.
    package nonisolated func batchEnrich(
        books: [BatchBook],
        jobID: String? = nil,
        route: BatchRoute = .batchEnrich
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        try await launcher.batchEnrich(books: books, jobID: jobID, route: route)
    }

    /// ``JobLauncher/batchEnrich(isbns:jobID:route:)`` of this client's ``launcher``.
    package nonisolated func batchEnrich(
        isbns: [String],
        jobID: String? = nil,
        route: BatchRoute = .batchEnrich
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        try await launcher.batchEnrich(isbns: isbns, jobID: jobID, route: route)
    }

    /// ``JobLauncher/scan(photos:)`` of this client's ``launcher``.
    package nonisolated func scan(photos: [URL]) async throws(BooksTrackError) -> APIResponse<ImportAccepted> {
        try await launcher.scan(photos: photos)
    }

    /// ``JobLauncher/importCSV(fileAt:)`` of this client's ``launcher``.
    package nonisolated func importCSV(fileAt fileURL: URL) async throws(BooksTrackError) -> APIResponse<ImportAccepted>
    {
        try await launcher.importCSV(fileAt: fileURL)
    }

    /// ``JobLauncher/checkedPhotos(_:)``: the photos a scan would send, checked without sending.
    package static func checkedPhotos(_ photos: [URL]) throws(BooksTrackError) -> [(url: URL, contentType: String)] {
        try JobLauncher.checkedPhotos(photos)
    }
}
