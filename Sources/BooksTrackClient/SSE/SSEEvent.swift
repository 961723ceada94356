/// One dispatched server-sent event, as the WHATWG "dispatch the event" step creates it.
package struct SSEEvent: Sendable, Equatable, Hashable {
    /// The event type: the last `event` field of the block, or `"message"` when there was none.
    package var type: String
    /// The `data` fields of the block joined with `"\n"` (the final newline removed).
    package var data: String
    /// The stream's last event ID string at dispatch time (it persists until an `id` field changes it).
    package var lastEventID: String

    /// Creates an event.
    package init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// Everything the parser can surface, in stream order: events, comments and reconnection-time changes.
package enum SSEStreamItem: Sendable, Equatable, Hashable {
    /// A dispatched event.
    case event(SSEEvent)
    /// A comment line (`: heartbeat`), without the colon and without one leading space.
    case comment(String)
    /// A valid `retry` field changed the reconnection time (milliseconds).
    case retry(milliseconds: Int)
}
