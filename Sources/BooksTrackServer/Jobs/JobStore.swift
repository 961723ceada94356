import BooksTrackContract
import Foundation
import GRDB

/// SQLite persistence of jobs, their event logs and their results (`<dataDirectory>/jobs.sqlite`).
///
/// Written through on every job event, so status, events and results survive a restart.
/// All methods are synchronous and thread-safe (GRDB serializes access).
final class JobStore: Sendable {
    private let dbQueue: DatabaseQueue

    /// Opens (creating when needed) the store in `directory`.
    /// The directory is private (0700) and the database file is created 0600 before SQLite opens
    /// it (its WAL and shared-memory files take the same mode): job tokens live in it.
    init(directory: URL) throws {
        let files = FileManager.default
        try files.createDirectory(
            at: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        try files.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        let database = directory.appendingPathComponent("jobs.sqlite").path
        if !files.fileExists(atPath: database) {
            _ = files.createFile(atPath: database, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: database + suffix) {
            try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: database + suffix)
        }
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(5)
        config.label = "bts.jobs"
        dbQueue = try DatabaseQueue(path: directory.appendingPathComponent("jobs.sqlite").path, configuration: config)
        try Self.migrator.migrate(dbQueue)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "job") { t in
                t.primaryKey("id", .text)
                t.column("pipeline", .text).notNull()
                t.column("status", .text).notNull()
                t.column("processedCount", .integer).notNull()
                t.column("totalCount", .integer).notNull()
                t.column("startTime", .integer).notNull()
                t.column("completedTime", .integer)
                t.column("owner", .text).notNull()
                t.column("authToken", .text).notNull()
                t.column("tokenExpiresAt", .integer).notNull()
                t.column("errorCode", .text)
                t.column("errorMessage", .text)
                t.column("errorRetryable", .boolean)
                t.column("successCount", .integer).notNull()
                t.column("failureCount", .integer).notNull()
                t.column("expiresAt", .integer)
            }
            try db.create(table: "jobEvent") { t in
                t.column("jobId", .text).notNull().references("job", onDelete: .cascade)
                t.column("seq", .integer).notNull()
                t.column("eventId", .text).notNull()
                t.column("phase", .text).notNull()
                t.column("payload", .text).notNull()
                t.primaryKey(["jobId", "seq"])
            }
            try db.create(table: "jobResult") { t in
                t.primaryKey("jobId", .text).references("job", onDelete: .cascade)
                t.column("body", .blob).notNull()
            }
        }
        return migrator
    }

    /// Inserts or updates the job row (an upsert: a REPLACE would cascade-delete its events), and appends
    /// `event` and stores `results` when given, in one transaction.
    func save(_ record: JobRecord, appending event: JobEvent? = nil, results: Data? = nil) throws {
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO job (id, pipeline, status, processedCount, totalCount, startTime,
                      completedTime, owner, authToken, tokenExpiresAt, errorCode, errorMessage, errorRetryable,
                      successCount, failureCount, expiresAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET status = excluded.status, processedCount = excluded.processedCount,
                      totalCount = excluded.totalCount, completedTime = excluded.completedTime,
                      authToken = excluded.authToken, tokenExpiresAt = excluded.tokenExpiresAt,
                      errorCode = excluded.errorCode, errorMessage = excluded.errorMessage,
                      errorRetryable = excluded.errorRetryable, successCount = excluded.successCount,
                      failureCount = excluded.failureCount, expiresAt = excluded.expiresAt
                    """,
                arguments: [
                    record.id, record.pipeline.rawValue, record.status.rawValue, record.processedCount,
                    record.totalCount, record.startTime.epochMilliseconds, record.completedTime?.epochMilliseconds,
                    record.owner, record.authToken, record.tokenExpiresAt.epochMilliseconds,
                    record.error?.code.rawValue, record.error?.message, record.error?.retryable,
                    record.successCount, record.failureCount, record.expiresAt?.epochMilliseconds,
                ]
            )
            if let event {
                let payload = try JSONCoding.encoder(sortedKeys: true).encode(event.payload)
                try db.execute(
                    sql: "INSERT OR REPLACE INTO jobEvent (jobId, seq, eventId, phase, payload) VALUES (?, ?, ?, ?, ?)",
                    arguments: [
                        event.jobID, event.sequence, event.id, event.status.rawValue,
                        String(decoding: payload, as: UTF8.self),
                    ]
                )
            }
            if let results {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO jobResult (jobId, body) VALUES (?, ?)",
                    arguments: [record.id, results]
                )
            }
        }
    }

    /// Every stored job with its event log (ordered by sequence).
    func loadAll() throws -> [(JobRecord, [JobEvent])] {
        try dbQueue.read { db in
            let decoder = JSONCoding.decoder()
            var events: [String: [JobEvent]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: "SELECT jobId, seq, eventId, phase, payload FROM jobEvent ORDER BY jobId, seq"
            ) {
                let jobID: String = row["jobId"]
                let text: String = row["payload"]
                guard
                    let payload = try? decoder.decode(JobEventPayload.self, from: Data(text.utf8))
                else { continue }
                events[jobID, default: []].append(
                    JobEvent(jobID: jobID, sequence: row["seq"], id: row["eventId"], payload: payload)
                )
            }
            return try Row.fetchAll(db, sql: "SELECT * FROM job").compactMap { row -> (JobRecord, [JobEvent])? in
                guard let record = Self.record(from: row) else { return nil }
                return (record, events[record.id] ?? [])
            }
        }
    }

    /// The stored results body of a job.
    func results(of jobID: String) throws -> Data? {
        try dbQueue.read { db in
            try Data.fetchOne(db, sql: "SELECT body FROM jobResult WHERE jobId = ?", arguments: [jobID])
        }
    }

    /// Forgets jobs (with their events and results).
    func delete(_ jobIDs: [String]) throws {
        guard !jobIDs.isEmpty else { return }
        try dbQueue.write { db in
            for id in jobIDs {
                try db.execute(sql: "DELETE FROM jobResult WHERE jobId = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM jobEvent WHERE jobId = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM job WHERE id = ?", arguments: [id])
            }
        }
    }

    private static func record(from row: Row) -> JobRecord? {
        guard let pipeline = JobPipeline(rawValue: row["pipeline"]), let status = JobState(rawValue: row["status"])
        else { return nil }
        let errorCode: String? = row["errorCode"]
        let completed: Int64? = row["completedTime"]
        let expires: Int64? = row["expiresAt"]
        return JobRecord(
            id: row["id"],
            pipeline: pipeline,
            status: status,
            processedCount: row["processedCount"],
            totalCount: row["totalCount"],
            startTime: Date(epochMilliseconds: row["startTime"]),
            completedTime: completed.map(Date.init(epochMilliseconds:)),
            owner: row["owner"],
            authToken: row["authToken"],
            tokenExpiresAt: Date(epochMilliseconds: row["tokenExpiresAt"]),
            error: errorCode.map {
                JobError(
                    code: ErrorCode($0),
                    message: row["errorMessage"] ?? "",
                    retryable: row["errorRetryable"] ?? false
                )
            },
            successCount: row["successCount"],
            failureCount: row["failureCount"],
            expiresAt: expires.map(Date.init(epochMilliseconds:))
        )
    }
}
