import BooksTrackContract
import Foundation
import NIOHTTP1

extension BooksTrackAPI {
    /// Follows this client's jobs live (``JobWatcher``).
    package nonisolated var watcher: JobWatcher {
        JobWatcher(client: self, configuration: configuration, transport: transport)
    }

    /// ``JobWatcher/watch(jobID:pipeline:token:options:)`` of this client's ``watcher``.
    package nonisolated func watch(
        jobID: String,
        pipeline: Pipeline = .csvImport,
        token: String? = nil,
        options: WatchOptions = WatchOptions()
    ) -> AsyncThrowingStream<WatchEvent, any Error> {
        watcher.watch(jobID: jobID, pipeline: pipeline, token: token, options: options)
    }

    /// Status without retries (the watcher decides what a failure means).
    func jobStatusOnce(
        _ jobID: String,
        pipeline: Pipeline? = nil
    ) async throws(BooksTrackError) -> BooksTrackContract.JobStatus {
        if dialect == .v3 { return try await v3JobStatus(jobID, pipeline: pipeline, retries: false).value }
        var spec = RequestSpec(.GET, KnownRoute.importStatus.path(Self.pathSegment(jobID)))
        spec.retries = false
        spec.notFoundMessage = "Job \(jobID) not found."
        return try await call(BooksTrackContract.JobStatus.self, spec).value
    }
}
