/// A pure, incremental parser for `text/event-stream` bodies, following the WHATWG HTML
/// "Parsing an event stream" and "Interpreting an event stream" rules.
///
/// Feed it byte chunks exactly as they come off the wire (any split is fine, including inside a
/// multibyte UTF-8 sequence, a leading BOM, or between the CR and LF of a CRLF); it returns the
/// events completed by that chunk. Call ``finish()`` at end of stream: a partial event is discarded.
///
/// One parser covers one connection. After a reconnect, start a new parser and send the previous
/// ``lastEventID`` in the `Last-Event-ID` request header.
package struct SSEParser: Sendable {
    /// Bytes of the line being read (undecoded, so split UTF-8 sequences are handled at decode time).
    private var line: [UInt8] = []
    /// The previous byte was a CR: an immediately following LF belongs to the same line end.
    private var afterCR = false
    /// Stream start: how many bytes of a leading BOM (EF BB BF) have matched so far; nil once past it.
    private var bomMatched: Int? = 0
    /// Bytes of the current line dropped because the line exceeded ``maximumLineLength``.
    private var lineOverflowed = false

    /// The data buffer, kept as bytes (decoding the joined bytes equals joining the decoded values,
    /// since LF never occurs inside a UTF-8 sequence); decoded once at dispatch.
    private var dataBuffer: [UInt8] = []
    private var eventTypeBuffer = ""
    private var lastEventIDBuffer = ""

    /// The event source's last event ID string (updated at each dispatch, even when no event results).
    package private(set) var lastEventID = ""
    /// The reconnection time in milliseconds, as last set by a valid `retry` field; nil until then.
    package private(set) var reconnectionTime: Int?
    /// Whether ``feedItems(_:)`` reports comment lines.
    package var surfacesComments: Bool
    /// The longest line (in bytes) kept; the rest of a longer line is dropped (bounded memory).
    package let maximumLineLength: Int
    /// How many lines were cut because they exceeded ``maximumLineLength``.
    package private(set) var truncatedLines = 0
    /// The largest data buffer (in bytes) of one event; a bigger event is dropped whole (bounded memory).
    package let maximumEventLength: Int
    /// How many events were dropped because their data exceeded ``maximumEventLength``.
    package private(set) var droppedEvents = 0
    /// The current event's data went over ``maximumEventLength``.
    private var eventOverflowed = false

    /// Creates a parser for one connection.
    /// - Parameters:
    ///   - surfacesComments: report comment lines from ``feedItems(_:)`` (heartbeats for liveness).
    ///   - maximumLineLength: longest line kept, in bytes (default 1 MiB).
    ///   - maximumEventLength: largest event data kept, in bytes (default 4 MiB).
    package init(surfacesComments: Bool = true, maximumLineLength: Int = 1 << 20, maximumEventLength: Int = 4 << 20) {
        self.surfacesComments = surfacesComments
        self.maximumLineLength = max(1, maximumLineLength)
        self.maximumEventLength = max(1, maximumEventLength)
    }

    /// Feeds a chunk and returns the events it completed (comments and retry changes are not reported).
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [SSEEvent] {
        feedItems(bytes).compactMap { item in
            if case .event(let event) = item { return event }
            return nil
        }
    }

    /// Feeds a chunk and returns everything it completed, in order: events, comments (when
    /// ``surfacesComments`` is set) and reconnection-time changes.
    package mutating func feedItems(_ bytes: some Sequence<UInt8>) -> [SSEStreamItem] {
        var items: [SSEStreamItem] = []
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            consume(buffer, into: &items)
        }
        if handled == nil {
            Array(bytes).withUnsafeBufferPointer { buffer in consume(buffer, into: &items) }
        }
        return items
    }

    /// Marks the end of the stream. Per the specification, a partial line and a partial event are
    /// discarded; the parser is then ready for nothing else (``lastEventID`` and ``reconnectionTime`` stay).
    package mutating func finish() {
        line.removeAll(keepingCapacity: false)
        lineOverflowed = false
        afterCR = false
        dataBuffer.removeAll(keepingCapacity: false)
        eventOverflowed = false
        eventTypeBuffer = ""
        lastEventIDBuffer = lastEventID
    }

    // MARK: - Bytes and lines

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A

    private mutating func consume(_ buffer: UnsafeBufferPointer<UInt8>, into items: inout [SSEStreamItem]) {
        var index = 0
        let count = buffer.count
        // Stream start: strip one leading BOM, which may arrive split across chunks.
        while index < count, let matched = bomMatched {
            if buffer[index] == Self.bom[matched] {
                bomMatched = matched + 1 == Self.bom.count ? nil : matched + 1
                index += 1
            } else {
                // Not a BOM after all: the bytes that matched are ordinary line content.
                bomMatched = nil
                appendToLine(Self.bom.prefix(matched))
            }
        }
        while index < count {
            if afterCR {
                afterCR = false
                if buffer[index] == Self.lf {  // the LF of a CRLF (possibly split across chunks)
                    index += 1
                    continue
                }
            }
            var end = index
            while end < count, buffer[end] != Self.cr, buffer[end] != Self.lf { end += 1 }
            appendToLine(buffer[index..<end])
            guard end < count else { break }
            afterCR = buffer[end] == Self.cr
            endLine(into: &items)
            index = end + 1
        }
    }

    private mutating func appendToLine(_ bytes: some Collection<UInt8>) {
        let room = maximumLineLength - line.count
        if bytes.count <= room {
            line.append(contentsOf: bytes)
        } else {
            line.append(contentsOf: bytes.prefix(max(0, room)))
            lineOverflowed = true
        }
    }

    private mutating func endLine(into items: inout [SSEStreamItem]) {
        if lineOverflowed {
            truncatedLines += 1
            lineOverflowed = false
        }
        process(line: line, into: &items)
        line.removeAll(keepingCapacity: true)
    }

    // MARK: - Interpretation

    private static let colon: UInt8 = 0x3A
    private static let space: UInt8 = 0x20

    private mutating func process(line: [UInt8], into items: inout [SSEStreamItem]) {
        if line.isEmpty {
            dispatch(into: &items)
            return
        }
        if line[0] == Self.colon {
            if surfacesComments {
                var text = line.dropFirst()
                if text.first == Self.space { text = text.dropFirst() }
                items.append(.comment(String(decoding: text, as: UTF8.self)))
            }
            return
        }
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colonIndex = line.firstIndex(of: Self.colon) {
            name = line[..<colonIndex]
            value = line[(colonIndex + 1)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            name = line[...]
            value = []
        }
        processField(name: name, value: value, into: &items)
    }

    private static let fieldEvent = Array("event".utf8)
    private static let fieldData = Array("data".utf8)
    private static let fieldID = Array("id".utf8)
    private static let fieldRetry = Array("retry".utf8)

    private mutating func processField(
        name: ArraySlice<UInt8>,
        value: ArraySlice<UInt8>,
        into items: inout [SSEStreamItem]
    ) {
        if name.elementsEqual(Self.fieldEvent) {
            eventTypeBuffer = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual(Self.fieldData) {
            if eventOverflowed || dataBuffer.count + value.count + 1 > maximumEventLength {
                eventOverflowed = true
                dataBuffer.removeAll(keepingCapacity: false)
                dataBuffer.append(Self.lf)  // non-empty, so the block still reaches dispatch (and is dropped there)
            } else {
                dataBuffer.append(contentsOf: value)
                dataBuffer.append(Self.lf)
            }
        } else if name.elementsEqual(Self.fieldID) {
            if !value.contains(0) {
                lastEventIDBuffer = String(decoding: value, as: UTF8.self)
            }
        } else if name.elementsEqual(Self.fieldRetry) {
            if let milliseconds = Self.parseDigits(value) {
                reconnectionTime = milliseconds
                items.append(.retry(milliseconds: milliseconds))
            }
        }
        // Any other field is ignored.
    }

    /// ASCII digits only (at least one), base ten; saturates at `Int.max` instead of overflowing.
    static func parseDigits(_ value: ArraySlice<UInt8>) -> Int? {
        guard !value.isEmpty else { return nil }
        var result = 0
        for byte in value {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - 0x30))
            result = (overflow1 || overflow2) ? Int.max : sum
        }
        return result
    }

    private mutating func dispatch(into items: inout [SSEStreamItem]) {
        lastEventID = lastEventIDBuffer
        if dataBuffer.isEmpty {
            eventTypeBuffer = ""
            return
        }
        if eventOverflowed {
            droppedEvents += 1
            eventOverflowed = false
            dataBuffer.removeAll(keepingCapacity: false)
            eventTypeBuffer = ""
            return
        }
        if dataBuffer.last == Self.lf { dataBuffer.removeLast() }
        let type = eventTypeBuffer.isEmpty ? "message" : eventTypeBuffer
        let data = String(decoding: dataBuffer, as: UTF8.self)
        items.append(.event(SSEEvent(type: type, data: data, lastEventID: lastEventID)))
        dataBuffer.removeAll(keepingCapacity: true)
        eventTypeBuffer = ""
    }
}
