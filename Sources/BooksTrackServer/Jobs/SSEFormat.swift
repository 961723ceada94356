import BooksTrackContract
import Foundation

/// The bytes of a job's Server-Sent Events stream (docs/contract.md §5). Pure.
enum SSEFormat {
    /// `: connection established` (or `: reconnected from event <id>`) and `retry:`, as one block.
    static func opening(lastEventID: String?, retryMilliseconds: Int) -> String {
        let comment: String
        if let lastEventID {
            comment = ": reconnected from event \(sanitize(lastEventID))"
        } else {
            comment = ": connection established"
        }
        return "\(comment)\nretry: \(retryMilliseconds)\n\n"
    }

    /// `id:`, `event:` (the status) and `data:` (sorted-key JSON) of a job event.
    static func event(_ event: JobEvent) -> String {
        "id: \(event.id)\nevent: \(event.status.rawValue)\ndata: \(json(event.payload))\n\n"
    }

    static let heartbeat = ": heartbeat\n\n"

    /// `event: timeout` (no id: it is not part of the job's log).
    static func timeout(_ payload: StreamTimeoutPayload) -> String {
        "event: timeout\ndata: \(json(payload))\n\n"
    }

    /// `event: error` (no id).
    static func error(_ payload: StreamErrorPayload) -> String {
        "event: error\ndata: \(json(payload))\n\n"
    }

    /// One-line JSON with sorted keys (JSON never contains raw newlines).
    static func json(_ value: some Encodable) -> String {
        guard let data = try? JSONCoding.encoder(sortedKeys: true).encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A client-supplied id, made safe to echo in a comment: printable ASCII only, at most 100 characters.
    static func sanitize(_ raw: String) -> String {
        String(String.UnicodeScalarView(raw.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(100)))
    }
}
