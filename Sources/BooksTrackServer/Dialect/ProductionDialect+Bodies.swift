import BooksTrackContract
import Foundation

/// The deployed backend's dialect (`jukasdrj/bendv3`), as pure rewrites of what the contract server
/// produces. Each rewrite names the source file (and commit prefix) it reproduces; the table in
/// docs/production-dialect.md lists them with how the client copes.
package enum ProductionDialect {
    // MARK: Envelopes (src/utils/response-builder.ts)

    /// `createSuccessResponse`: `{success: true, data, metadata: {timestamp, ...}}`.
    static func success(_ data: JSONValue, metadata: [String: JSONValue] = [:], timestamp: String) -> JSONValue {
        var meta = metadata
        meta["timestamp"] = .string(timestamp)
        return ["success": true, "data": data, "metadata": .object(meta)]
    }

    /// `createErrorResponse`: `{success: false, data: null, metadata, error: {message, code, retryable, details}}`;
    /// `retryable` only for RATE_LIMIT_EXCEEDED, PROVIDER_*, CACHE_ERROR and INTERNAL_ERROR.
    static func failure(_ message: String, code: String, details: JSONValue? = nil, timestamp: String) -> JSONValue {
        let retryable = ["RATE_LIMIT_EXCEEDED", "PROVIDER_ERROR", "PROVIDER_TIMEOUT", "CACHE_ERROR", "INTERNAL_ERROR"]
            .contains(code)
        var error: [String: JSONValue] = [
            "message": .string(message), "code": .string(code), "retryable": .bool(retryable),
        ]
        if let details { error["details"] = details }
        return ["success": false, "data": nil, "metadata": ["timestamp": .string(timestamp)], "error": .object(error)]
    }

    /// router.ts `app.notFound`: 404 `Endpoint not found: METHOD /path`.
    static func endpointNotFound(method: String, path: String, timestamp: String) -> JSONValue {
        failure(
            "Endpoint not found: \(method) \(path)",
            code: "NOT_FOUND",
            details: ["method": .string(method), "path": .string(path)],
            timestamp: timestamp
        )
    }

    // MARK: Capabilities (src/handlers/v2/capabilities.ts 8aac08d)

    /// The enveloped feature list. `maxBatchSize` says 50 although the batch handler accepts 100;
    /// there is no `similar_books` feature (similar search is listed under `semantic_search`).
    static func capabilities(contract: JSONValue, timestamp: String) -> JSONValue {
        let flags = contract["features"]?.objectValue ?? [:]
        func on(_ name: String) -> Bool { flags[name]?.boolValue ?? true }
        func feature(
            _ name: String,
            _ enabled: Bool,
            _ version: String,
            _ endpoints: [String],
            rpm: Int? = nil
        ) -> JSONValue {
            var f: [String: JSONValue] = [
                "name": .string(name), "enabled": .bool(enabled), "version": .string(version),
                "endpoints": .array(endpoints.map(JSONValue.string)),
            ]
            if let rpm { f["rateLimit"] = ["requests": .number(Double(rpm)), "windowMs": 60000] }
            return .object(f)
        }
        let features: [JSONValue] = [
            feature(
                "text_search",
                true,
                "1.0.0",
                [
                    "GET /api/v2/search?mode=text", "GET /v1/search/title", "GET /v1/search/isbn",
                    "GET /v1/search/advanced",
                ],
                rpm: 100
            ),
            feature(
                "semantic_search",
                on("semantic_search"),
                "1.0.0",
                ["GET /api/v2/search?mode=semantic", "GET /v1/search/semantic", "GET /v1/search/similar"],
                rpm: 5
            ),
            feature(
                "csv_import",
                on("csv_import"),
                "2.0.0",
                [
                    "POST /api/v2/imports", "GET /api/v2/imports/{jobId}", "GET /api/v2/imports/{jobId}/stream",
                    "GET /api/v2/imports/{jobId}/results", "POST /api/import/csv-gemini",
                ],
                rpm: 5
            ),
            feature(
                "bookshelf_scan",
                true,
                "1.0.0",
                ["POST /api/scan-bookshelf/batch", "POST /api/batch-scan"],
                rpm: 5
            ),
            feature("barcode_enrichment", true, "2.0.0", ["POST /api/v2/books/enrich"], rpm: 10),
            feature("batch_enrichment", on("batch_enrichment"), "1.0.0", ["POST /v1/enrichment/batch"], rpm: 5),
            feature("async_enrichment", false, "1.0.0", ["POST /api/v2/books/enrich"]),
            feature(
                "weekly_recommendations",
                on("weekly_recommendations"),
                "1.0.0",
                ["GET /api/v2/recommendations/weekly"]
            ),
            feature(
                "job_status",
                true,
                "1.0.0",
                ["GET /v1/jobs/{jobId}/status", "GET /v1/jobs/{jobId}/results"],
                rpm: 30
            ),
            feature("job_cancellation", on("job_cancellation"), "1.0.0", ["DELETE /v1/jobs/{jobId}"]),
            feature("websocket_progress", true, "1.0.0", ["GET /ws/progress"]),
            feature("sse_progress", on("sse_progress"), "1.0.0", ["GET /api/v2/imports/{jobId}/stream"]),
        ]
        let data: JSONValue = [
            "apiVersion": "2.1.0",
            "features": .array(features),
            "limits": ["maxBatchSize": 50, "maxCsvRows": 5000, "maxImageSizeMb": 10, "maxConcurrentJobs": 3],
            "deprecations": [
                [
                    "endpoint": "GET /search/author", "sunsetDate": "2026-03-01",
                    "replacement": "GET /v1/search/advanced",
                ]
            ],
        ]
        return success(data, metadata: ["source": "capabilities-handler"], timestamp: timestamp)
    }

    // MARK: Search (src/handlers/v1/search-title.ts 136b164, src/utils/response-transformer.ts fc8375f)

    /// `authors` becomes the list of unique authors over all works (`extractUniqueAuthors`), so its
    /// count no longer matches `works`; the works' own author lists are stripped
    /// (`removeAuthorsFromWorks`) and `contributors` name the data provider. `totalResults` goes.
    static func bookSearch(_ envelope: JSONValue) -> JSONValue {
        guard var root = envelope.objectValue, var data = root["data"]?.objectValue,
            let works = data["works"]?.arrayValue
        else { return envelope }
        let authors = data["authors"]?.arrayValue ?? []
        var unique: [JSONValue] = []
        var seen = Set<String>()
        func add(_ name: String, _ object: JSONValue?) {
            guard !name.isEmpty, seen.insert(name).inserted else { return }
            unique.append(object ?? ["name": .string(name), "gender": "Unknown"])
        }
        var cleanWorks: [JSONValue] = []
        for (i, work) in works.enumerated() {
            var names: [String] = []
            if authors.count == works.count, let primary = authors[i]["name"]?.stringValue {
                let people = work["contributors"]?.arrayValue?.compactMap(\.stringValue) ?? []
                names = people.first == primary ? people : [primary]
            } else if works.count == 1 {
                names = authors.compactMap { $0["name"]?.stringValue }
            }
            for name in names {
                add(name, authors.first(where: { $0["name"]?.stringValue == name }))
            }
            var w = work.objectValue ?? [:]
            w["contributors"] = [w["primaryProvider"] ?? "google-books"]
            w["authors"] = nil
            cleanWorks.append(.object(w))
        }
        data["works"] = .array(cleanWorks)
        data["authors"] = .array(unique)
        data["resultCount"] = .number(Double(cleanWorks.count))
        data["totalResults"] = nil
        root["data"] = .object(data)
        var meta = root["metadata"]?.objectValue ?? [:]
        meta["provider"] = cleanWorks.isEmpty ? "none" : (cleanWorks[0]["primaryProvider"] ?? "google-books")
        meta["cached"] = false
        root["metadata"] = .object(meta)
        return .object(root)
    }

    // MARK: Similar (src/handlers/semantic-search-handler.ts 1815968)

    /// Bare `{query: {isbn, limit}, results: [{isbn, score, title, author}], count}`.
    static func similar(_ contract: JSONValue, isbn: String, limit: Int) -> JSONValue {
        let hits = (contract["results"]?.arrayValue ?? []).map { hit -> JSONValue in
            let names = hit["authors"]?.arrayValue?.compactMap(\.stringValue) ?? []
            var r: [String: JSONValue] = [
                "isbn": hit["isbn"] ?? nil, "score": hit["similarity_score"] ?? hit["score"] ?? 0,
                "title": hit["title"] ?? "",
            ]
            if !names.isEmpty { r["author"] = .string(names.joined(separator: ", ")) }
            return .object(r)
        }
        return [
            "query": ["isbn": .string(isbn), "limit": .number(Double(limit))],
            "results": .array(hits),
            "count": .number(Double(hits.count)),
        ]
    }

    // MARK: v2 search (src/handlers/v2/search.ts 0ab5ad2)

    /// Text mode: flat BookDTOs without a score. Semantic, hybrid and similar modes read
    /// `data.results` of the v1 handlers' bare bodies, so they always answer no results.
    static func v2Search(_ envelope: JSONValue, mode: String) -> JSONValue {
        guard var root = envelope.objectValue, var data = root["data"]?.objectValue else { return envelope }
        var query = data["query"]?.objectValue ?? [:]
        if mode == "text" {
            let hits = data["results"]?.arrayValue ?? []
            data["results"] = .array(
                hits.map { hit in
                    var b: [String: JSONValue] = ["title": hit["title"] ?? "", "authors": hit["authors"] ?? []]
                    if let isbn = hit["isbn"] { b["isbn"] = isbn }
                    if let cover = hit["coverUrl"] { b["coverUrl"] = cover }
                    if let year = hit["publishedYear"]?.intValue { b["publishedDate"] = .string(String(year)) }
                    return .object(b)
                }
            )
        } else {
            query["offset"] = nil
            data["results"] = []
            data["totalCount"] = 0
        }
        data["query"] = .object(query)
        root["data"] = .object(data)
        return .object(root)
    }

    // MARK: Recommendations (src/handlers/v2/recommendations.ts 6309510)

    /// Enveloped `{weekOf, recommendations: [{isbn, title, author, coverUrl?, reason}], count,
    /// totalAvailable}`; none generated yet is 200 with an empty list and a `message`.
    static func weekly(_ contract: JSONValue?, weekOf: String, timestamp: String) -> JSONValue {
        guard let contract, let books = contract["books"]?.arrayValue else {
            return success(
                [
                    "weekOf": .string(weekOf), "recommendations": [], "count": 0, "totalAvailable": 0,
                    "message": "Weekly recommendations are generated every Sunday at midnight UTC. Check back soon!",
                ],
                metadata: ["source": "none", "cached": false],
                timestamp: timestamp
            )
        }
        let picks = books.map { book -> JSONValue in
            let names = book["authors"]?.arrayValue?.compactMap(\.stringValue) ?? []
            var r: [String: JSONValue] = [
                "isbn": book["isbn"] ?? "", "title": book["title"] ?? "",
                "author": .string(names.joined(separator: ", ")), "reason": book["reason"] ?? "",
            ]
            if let cover = book["cover_url"] { r["coverUrl"] = cover }
            return .object(r)
        }
        return success(
            [
                "weekOf": contract["week_of"] ?? .string(weekOf), "recommendations": .array(picks),
                "count": .number(Double(picks.count)), "totalAvailable": .number(Double(picks.count)),
            ],
            metadata: ["source": "kv-cache", "cached": true, "generatedAt": contract["generated_at"] ?? nil],
            timestamp: timestamp
        )
    }

    // MARK: Batch enrichment (src/handlers/batch-enrichment.ts 111be0a / 2159ade)

    /// Validates a batch body the way the handler does; nil when accepted, else the 400 to send.
    static func batchRefusal(_ body: JSONValue?, timestamp: String) -> JSONValue? {
        guard let books = body?["books"]?.arrayValue else {
            return failure("Invalid books array", code: "INVALID_REQUEST", timestamp: timestamp)
        }
        guard let jobID = body?["jobId"], !jobID.isNull, jobID.stringValue.map({ !$0.isEmpty }) ?? true else {
            return failure("Missing jobId", code: "INVALID_REQUEST", timestamp: timestamp)
        }
        if books.isEmpty { return failure("Empty books array", code: "EMPTY_BATCH", timestamp: timestamp) }
        if books.count > JobLimits.maxBatchSize {
            return failure(
                "Batch size exceeds maximum of \(JobLimits.maxBatchSize) books",
                code: "BATCH_TOO_LARGE",
                timestamp: timestamp
            )
        }
        for (i, book) in books.enumerated() {
            guard let title = book["title"]?.stringValue, !title.isEmpty else {
                return failure("Invalid title for book at index \(i)", code: "INVALID_REQUEST", timestamp: timestamp)
            }
            if title.count > 500 {
                return failure(
                    "Title exceeds maximum length of 500 characters at index \(i)",
                    code: "INVALID_REQUEST",
                    timestamp: timestamp
                )
            }
        }
        return nil
    }

    /// The 202: `data = {jobId, success: true, processedCount: 0, totalCount, token}` (no `authToken`,
    /// no stream URLs).
    static func batchAccepted(_ envelope: JSONValue) -> JSONValue {
        guard var root = envelope.objectValue, let data = root["data"] else { return envelope }
        root["data"] = [
            "jobId": data["jobId"] ?? "", "success": true, "processedCount": 0,
            "totalCount": data["totalCount"] ?? 0, "token": data["authToken"] ?? data["token"] ?? "",
        ]
        root["metadata"] = ["timestamp": root["metadata"]?["timestamp"] ?? ""]
        return .object(root)
    }

    /// src/handlers/csv-import.ts @ 6631dc0: the import's 202 is `data = {jobId, token}` only.
    static func importAccepted(_ envelope: JSONValue) -> JSONValue {
        guard var root = envelope.objectValue, let data = root["data"] else { return envelope }
        root["data"] = ["jobId": data["jobId"] ?? "", "token": data["authToken"] ?? data["token"] ?? ""]
        root["metadata"] = ["timestamp": root["metadata"]?["timestamp"] ?? ""]
        return .object(root)
    }

    /// Per-book results as the KV entry holds them: a book that was not found is `success: true` with
    /// `enriched: {authors: []}` (no work, no edition — `if (enriched)` on an always-truthy result),
    /// and every second found book comes with `edition: null`.
    static func batchResults(_ envelope: JSONValue) -> JSONValue {
        guard var root = envelope.objectValue else { return envelope }
        let rows = root["data"]?.arrayValue ?? root["data"]?["results"]?.arrayValue
        guard let rows, rows.first?["success"] != nil else { return envelope }
        var found = 0
        root["data"] = .array(
            rows.map { row in
                guard var r = row.objectValue else { return row }
                if r["success"]?.boolValue == true, var enriched = r["enriched"]?.objectValue {
                    found += 1
                    if found % 2 == 0 {
                        enriched["edition"] = .null
                        r["enriched"] = .object(enriched)
                    }
                } else {
                    r["success"] = true
                    r["error"] = nil
                    r["enriched"] = ["authors": []]
                }
                return .object(r)
            }
        )
        var meta = root["metadata"]?.objectValue ?? [:]
        meta["cached"] = true
        meta["provider"] = "kv_cache"
        root["metadata"] = .object(meta)
        return .object(root)
    }

    // MARK: Single enrichment (src/handlers/v2/enrich.ts)

    /// Some versions read the ISBN only from `isbn` (48a74c2 takes `barcode || isbn`): without it,
    /// 400 INVALID_REQUEST "Invalid or missing barcode".
    static func enrichRefusal(_ body: JSONValue?, timestamp: String) -> JSONValue? {
        let digits = body?["isbn"]?.stringValue?.filter { $0 != "-" && $0 != " " } ?? ""
        guard digits.count == 10 || digits.count == 13 else {
            return failure(
                "Invalid or missing barcode. Must be ISBN-10 or ISBN-13.",
                code: "INVALID_REQUEST",
                details: ["field": "barcode"],
                timestamp: timestamp
            )
        }
        return nil
    }

    // MARK: Token refresh (src/router.ts 758fe1a, websocket-connection.ts 01bfeeb)

    /// Every refusal is 401 UNAUTHORIZED with the object's sentence, soft ones included.
    static func tokenRefreshFailure(status: Int, contract: JSONValue, jobID: String, timestamp: String) -> JSONValue {
        let message = contract["error"]?["message"]?.stringValue?.lowercased() ?? ""
        let sentence: String
        if status == 400, message.contains("refreshed only") {
            sentence = "Refresh not allowed yet"
        } else if message.contains("expired") {
            sentence = "Token expired"
        } else {
            sentence = "Invalid token"
        }
        return failure(sentence, code: "UNAUTHORIZED", details: ["jobId": .string(jobID)], timestamp: timestamp)
    }

    // MARK: Rate limiter (src/middleware/rate-limiter.ts 33c12bd)

    /// The limiter's own 429 body (not an envelope; `error` is a string). `limit` is what the route
    /// passed: router.ts hands the polling routes `{limit: 30, window: 60}` where a number belongs.
    static func rateLimited(retryAfter: Int, limit: JSONValue, remaining: Int, endpoint: String) -> JSONValue {
        [
            "error": .string("Rate limit exceeded. Please try again in \(retryAfter) seconds."),
            "code": "RATE_LIMIT_EXCEEDED",
            "details": [
                "retryAfter": .number(Double(retryAfter)), "clientIP": "127.0.0....",
                "requestsRemaining": .number(Double(remaining)), "requestsLimit": limit,
                "endpoint": .string(endpoint),
            ],
        ]
    }

    /// How JavaScript prints `limit` into a header: an object becomes `[object Object]`.
    static func headerText(_ limit: JSONValue) -> String {
        if let n = limit.intValue { return String(n) }
        return "[object Object]"
    }
}
