import BooksTrackContract
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Synchronization

/// What the production dialect remembers across requests of one server: which jobs are batch jobs
/// (their progress lives where the SSE route does not look) and which WebSocket tokens were used.
package final class ProductionDialectState: Sendable {
    private let batchJobs = Mutex(Set<String>())
    private let consumedTokens = Mutex(Set<String>())

    package init() {}

    func noteBatchJob(_ id: String) { batchJobs.withLock { _ = $0.insert(id) } }
    func isBatchJob(_ id: String) -> Bool { batchJobs.withLock { $0.contains(id) } }

    /// Marks a WebSocket token used; false if it already was (websocket-connection.ts: one
    /// connection per token, "Token already consumed").
    func consume(_ token: String) -> Bool { consumedTokens.withLock { $0.insert(token).inserted } }
    func isConsumed(_ token: String) -> Bool { consumedTokens.withLock { $0.contains(token) } }
}

extension ProductionDialect {
    // MARK: SSE (src/handlers/v2/sse-stream.ts 4f60254, job-state-manager.ts 01bfeeb)

    /// Rewrites the SSE text of one import stream. The first event of a connection keeps the job's
    /// state as its name; later `processing` events are `progress` (with the status sentence in
    /// `message`); `completed` carries `progress: 100`; `failed` carries `error: {code, message}` only.
    /// Comments, `retry:` and heartbeats pass unchanged.
    /// One stream's ``SSERewriter``, shared by the chunks of its body as they pass.
    final class SharedSSERewriter: Sendable {
        private let rewriter = Mutex(SSERewriter())

        func rewrite(_ text: String) -> String {
            rewriter.withLock { $0.rewrite(text) }
        }
    }

    struct SSERewriter: Sendable {
        private var sawEvent = false

        mutating func rewrite(_ text: String) -> String {
            var out = ""
            var rest = Substring(text)
            while let end = rest.range(of: "\n\n") {
                out += rewriteBlock(String(rest[..<end.lowerBound])) + "\n\n"
                rest = rest[end.upperBound...]
            }
            return out + rest
        }

        private mutating func rewriteBlock(_ block: String) -> String {
            var lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let eventIndex = lines.firstIndex(where: { $0.hasPrefix("event: ") }),
                let dataIndex = lines.firstIndex(where: { $0.hasPrefix("data: ") })
            else { return block }
            let name = String(lines[eventIndex].dropFirst("event: ".count))
            guard ["initialized", "processing", "completed", "failed", "canceled"].contains(name),
                let parsed = try? JSONCoding.decoder().decode(
                    JSONValue.self,
                    from: Data(lines[dataIndex].dropFirst(6).utf8)
                ),
                var data = parsed.objectValue
            else { return block }
            let first = !sawEvent
            sawEvent = true
            var newName = name
            switch name {
            case "processing" where !first:
                newName = "progress"
                let done = data["processedCount"]?.intValue ?? 0
                let total = data["totalCount"]?.intValue ?? 0
                data["message"] = .string("Processing \(done)/\(total)")
                data["timestamp"] = .string(ISO8601.string(from: Date()))
            case "completed":
                data["progress"] = 100
                data["books"] = data["books"] ?? []
            case "failed":
                let error = data["error"]
                data["error"] = [
                    "code": error?["code"] ?? "E_UNKNOWN_ERROR", "message": error?["message"] ?? "Job failed",
                ]
            default:
                break
            }
            lines[eventIndex] = "event: \(newName)"
            lines[dataIndex] = "data: " + SSEFormat.json(JSONValue.object(data))
            return lines.joined(separator: "\n")
        }
    }

    /// A batch job's stream: its progress lives in the legacy progress object, which the SSE
    /// route's job store does not see (batch-enrichment.ts 2159ade vs sse-stream.ts).
    static func sseJobNotFound(jobID: String) -> String {
        ": connection established\nretry: 5000\n\n"
            + "event: error\ndata: "
            + SSEFormat.json(
                JSONValue.object([
                    "error": "job_not_found", "message": "Import job not found or not initialized",
                    "jobId": .string(jobID),
                ])
            ) + "\n\n"
    }

    // MARK: WebSocket (src/durable-objects/websocket-connection.ts, job-state-manager.ts 01bfeeb)

    /// A server message as production words it: `version: "2.0.0"`, the payload repeats its `type`;
    /// `job_progress` adds `totalCount`; `error` wraps the failure like an HTTP error envelope
    /// (`{type, data: null, metadata, error: {message, code, details}, retryable}`).
    static func webSocketMessage(_ message: WSMessage, totalCount: Int?) -> JSONValue {
        let type = message.type.rawValue
        var payload: [String: JSONValue]
        switch message.payload {
        case .jobProgress(let p):
            payload = [
                "progress": .number(p.progress), "status": .string(p.status),
                "processedCount": p.processedCount.map { JSONValue.number(Double($0)) } ?? nil,
            ]
            if let totalCount { payload["totalCount"] = .number(Double(totalCount)) }
        case .jobStarted(let p):
            payload = ["totalCount": p.totalCount.map { JSONValue.number(Double($0)) } ?? nil]
        case .jobComplete(let p):
            payload = [
                "pipeline": .string(p.pipeline.rawValue), "expiresAt": .string(p.expiresAt),
                "summary": [
                    "totalProcessed": .number(Double(p.summary.totalProcessed)),
                    "successCount": .number(Double(p.summary.successCount)),
                    "failureCount": .number(Double(p.summary.failureCount)),
                    "duration": .number(Double(p.summary.duration)),
                    "resourceId": .string("job-results:\(message.jobId)"),
                ],
            ]
        case .error(let e):
            payload = [
                "data": nil, "metadata": ["timestamp": .string(ISO8601.string(from: Date()))],
                "error": ["message": .string(e.message), "code": .string(e.code.rawValue), "details": nil],
                "retryable": .bool(e.retryable ?? false),
            ]
        case .ping, .pong:
            payload = [:]
        case .other:
            payload = ["timestamp": .number(Double(message.timestamp))]
        }
        payload["type"] = .string(type)
        return [
            "type": .string(type), "jobId": .string(message.jobId),
            "pipeline": message.pipeline.map { JSONValue.string($0.rawValue) } ?? "unknown",
            "timestamp": .number(Double(message.timestamp)), "version": "2.0.0", "payload": .object(payload),
        ]
    }
}

extension ProductionDialect {
    /// websocket-connection.ts `fetch`: the token comes only from `?token=`; it must match the job's
    /// current token and not have been used before; it is marked used at once. The subprotocol is
    /// not echoed. A refusal declines the upgrade (the HTTP side then answers a plain-text 401).
    static func shouldUpgrade(
        _ request: Request,
        engine: JobEngine,
        state: ProductionDialectState
    ) async
        -> RouterShouldUpgrade
    {
        let query = request.uri.queryParameters
        guard let jobID = query.get("jobId").map({ String($0) }), !jobID.isEmpty,
            let token = query.get("token").map({ String($0) }), !token.isEmpty,
            !state.isConsumed(token)
        else { return .dontUpgrade }
        guard case .valid = await engine.checkToken(token, for: jobID), state.consume(token) else {
            return .dontUpgrade
        }
        return .upgrade([:])
    }
}
