/// `data` of `POST /v3/books/enrich` in sync mode (bendv3 `src/api-v3/index.ts` @ e40ae5d,
/// `packages/schemas/src/enrich.ts` `EnrichResultDataSchema`): the books found (flat, `vectorized`
/// added), how many were asked and found, and the ISBNs not found.
package struct V3EnrichResult: Decodable, Sendable, Hashable {
    package var books: [EnrichedBook]
    package var requested: Int
    package var found: Int
    package var notFound: [String]

    package init(books: [EnrichedBook], requested: Int, found: Int, notFound: [String] = []) {
        self.books = books
        self.requested = requested
        self.found = found
        self.notFound = notFound
    }

    enum CodingKeys: String, CodingKey { case books, requested, found, notFound }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        books = try c.decodeIfPresent([EnrichedBook].self, forKey: .books) ?? []
        requested = try c.decodeLenientInt(forKey: .requested) ?? books.count
        found = try c.decodeLenientInt(forKey: .found) ?? books.count
        notFound = (try? c.decodeIfPresent([String].self, forKey: .notFound)) ?? nil ?? []
    }
}

/// `data` of a v3 job's 202 (`JobInitDataSchema`, packages/schemas/src/jobs.ts): `{jobId, status:
/// "queued", streamUrl, token}`. The token (64 lowercase hex, valid 1 h) opens the job's SSE stream.
package struct V3JobAccepted: Decodable, Sendable, Hashable {
    package var jobId: String
    package var status: JobState
    /// Production always writes `https://…` here (jobs/common.ts `buildStreamUrl`): the client builds
    /// the stream's URL from its own base URL, never from this.
    package var streamUrl: String?
    package var token: String

    package init(jobId: String, status: JobState = .initialized, streamUrl: String? = nil, token: String) {
        self.jobId = jobId
        self.status = status
        self.streamUrl = streamUrl
        self.token = token
    }

    enum CodingKeys: String, CodingKey { case jobId, status, streamUrl, token, authToken }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        jobId = try c.decode(String.self, forKey: .jobId)
        status = (try? c.decodeIfPresent(JobState.self, forKey: .status)) ?? nil ?? .initialized
        streamUrl = try? c.decodeIfPresent(String.self, forKey: .streamUrl)
        token =
            try c.decodeIfPresent(String.self, forKey: .token) ?? c.decodeIfPresent(String.self, forKey: .authToken)
            ?? ""
    }
}
