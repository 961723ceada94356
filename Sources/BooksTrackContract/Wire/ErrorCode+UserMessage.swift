extension ErrorCode {
    /// The user-facing sentence for this code, in the wording the mobile clients settled on
    /// (docs/contract.md §2). `provider` names the upstream for `CIRCUIT_OPEN`; `retryAfterSeconds`
    /// fills in the wait for rate limits and open circuits.
    package func userMessage(provider: String? = nil, retryAfterSeconds: Int? = nil) -> String {
        switch self {
        case .circuitOpen:
            let who = provider.map(Self.providerDisplayName) ?? "The book provider"
            if let s = retryAfterSeconds, s > 0 {
                return "\(who) is temporarily unavailable. Retrying in \(Self.seconds(s))…"
            }
            return "\(who) is temporarily unavailable. Retrying shortly…"
        case .rateLimitExceeded:
            if let s = retryAfterSeconds, s > 0 { return "Too many requests. Please wait \(Self.seconds(s))." }
            return "Too many requests. Please wait a moment."
        case .networkError: return "Connection lost. Retrying…"
        case .notFound: return "Book not found. Try a different search."
        case .invalidISBN: return "ISBN format is incorrect (use ISBN-10 or ISBN-13)"
        case .missingParameter: return "A required parameter is missing."
        case .invalidRequest: return "The request was not valid."
        case .invalidQuery: return "The search query was not valid."
        case .fileTooLarge: return "The file is too large (the limit is \(JobLimits.maxCSVSize))."
        case .emptyBatch: return "The batch is empty: add at least one book."
        case .batchTooLarge: return "The batch is too large (at most \(JobLimits.maxBatchSize) books)."
        case .unauthorized: return "Not authorized: the job token is missing or wrong."
        case .featureNotAvailable: return "This feature is not available on this server."
        case .providerError, .apiError: return "The book provider returned an error. Please try again."
        case .providerTimeout: return "The book provider timed out. Please try again."
        case .internalError: return "The server had an internal error. Please try again."
        case .routeNotOffered: return "This server does not offer that."
        case .canceled: return "The job was canceled."
        case .conflict: return "The job has already finished."
        case .invalidAcceptHeader: return "The progress stream needs 'Accept: text/event-stream'."
        case .csvProcessingFailed: return "The CSV import failed."
        case .batchProcessingFailed: return "The batch enrichment failed."
        case .serviceUnavailable: return "The server is temporarily unavailable. Please try again later."
        default: return "The server reported an error (\(rawValue))."
        }
    }

    static func seconds(_ n: Int) -> String { n == 1 ? "1 second" : "\(n) seconds" }

    static func providerDisplayName(_ raw: String) -> String {
        switch raw.lowercased() {
        case "google_books", "googlebooks", "google-books", "google": return "Google Books"
        case "openlibrary", "open_library", "open-library": return "Open Library"
        case "isbndb": return "ISBNdb"
        default: return raw
        }
    }
}
