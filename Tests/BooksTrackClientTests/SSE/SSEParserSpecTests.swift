import BooksTrackClient
import Testing

/// Parses a whole stream given as a string, in one chunk, and returns all items.
private func items(_ text: String, comments: Bool = true) -> [SSEStreamItem] {
    var parser = SSEParser(surfacesComments: comments)
    let result = parser.feedItems(Array(text.utf8))
    parser.finish()
    return result
}

private func events(_ bytes: [UInt8]) -> [SSEEvent] {
    var parser = SSEParser()
    let result = parser.feed(bytes)
    parser.finish()
    return result
}

private func events(_ text: String) -> [SSEEvent] { events(Array(text.utf8)) }

struct SSESpecCase: Sendable, CustomTestStringConvertible {
    let name: String
    let stream: String
    let expected: [SSEEvent]
    var testDescription: String { name }
}

/// The examples of the WHATWG "Server-sent events" section, plus the rules of "Interpreting an event stream".
let sseSpecCases: [SSESpecCase] = [
    .init(
        name: "spec: stock ticker, multi-line data joined with LF",
        stream: "data: YHOO\ndata: +2\ndata: 10\n\n",
        expected: [SSEEvent(data: "YHOO\n+2\n10")]
    ),
    .init(
        name: "spec: comment, ids, id reset by bare id, two leading spaces keep one",
        stream: ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n",
        expected: [
            SSEEvent(data: "first event", lastEventID: "1"),
            SSEEvent(data: "second event", lastEventID: ""),
            SSEEvent(data: " third event", lastEventID: ""),
        ]
    ),
    .init(
        name: "spec: bare data fields; unterminated final block discarded",
        stream: "data\n\ndata\ndata\n\ndata:",
        expected: [SSEEvent(data: ""), SSEEvent(data: "\n")]
    ),
    .init(
        name: "spec: space after colon is optional",
        stream: "data:test\n\ndata: test\n\n",
        expected: [SSEEvent(data: "test"), SSEEvent(data: "test")]
    ),
    .init(
        name: "spec: event types add/remove",
        stream: "event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\n",
        expected: [
            SSEEvent(type: "add", data: "73857293"), SSEEvent(type: "remove", data: "2153"),
            SSEEvent(type: "add", data: "113411"),
        ]
    ),
    .init(
        name: "CR line endings",
        stream: "data: a\rdata: b\r\r",
        expected: [SSEEvent(data: "a\nb")]
    ),
    .init(
        name: "CRLF line endings",
        stream: "event: x\r\ndata: a\r\n\r\n",
        expected: [SSEEvent(type: "x", data: "a")]
    ),
    .init(
        name: "mixed line endings (CRLF field, LF dispatch)",
        stream: "data: a\r\ndata: b\n\ndata: c\r\r\n",
        expected: [SSEEvent(data: "a\nb"), SSEEvent(data: "c")]
    ),
    .init(
        name: "LF CR is two line ends (dispatch)",
        stream: "data: a\n\r",
        expected: [SSEEvent(data: "a")]
    ),
    .init(
        name: "no dispatch without data; event type reset",
        stream: "event: lonely\n\ndata: x\n\n",
        expected: [SSEEvent(data: "x")]
    ),
    .init(
        name: "id persists across events until changed",
        stream: "id: 7\ndata: a\n\ndata: b\n\nid: 8\ndata: c\n\n",
        expected: [
            SSEEvent(data: "a", lastEventID: "7"), SSEEvent(data: "b", lastEventID: "7"),
            SSEEvent(data: "c", lastEventID: "8"),
        ]
    ),
    .init(
        name: "id containing NUL ignored",
        stream: "id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\n",
        expected: [SSEEvent(data: "a", lastEventID: "1"), SSEEvent(data: "b", lastEventID: "1")]
    ),
    .init(
        name: "id only block updates last event id without dispatch",
        stream: "id: 5\n\ndata: x\n\n",
        expected: [SSEEvent(data: "x", lastEventID: "5")]
    ),
    .init(
        name: "unknown fields and field name case matter",
        stream: "foo: bar\nData: nope\nDATA: no\ndata: yes\n\n",
        expected: [SSEEvent(data: "yes")]
    ),
    .init(
        name: "field name is everything before the first colon; value keeps later colons",
        stream: "data: a: b:c\n\n",
        expected: [SSEEvent(data: "a: b:c")]
    ),
    .init(
        name: "only one leading space removed; tabs kept",
        stream: "data:\tx\n\ndata:   y\n\n",
        expected: [SSEEvent(data: "\tx"), SSEEvent(data: "  y")]
    ),
    .init(
        name: "event without colon sets empty type, defaults to message",
        stream: "event\ndata: z\n\n",
        expected: [SSEEvent(type: "message", data: "z")]
    ),
    .init(
        name: "last event type wins",
        stream: "event: a\nevent: b\ndata: z\n\n",
        expected: [SSEEvent(type: "b", data: "z")]
    ),
    .init(
        name: "leading BOM stripped once",
        stream: "\u{FEFF}data: a\n\n",
        expected: [SSEEvent(data: "a")]
    ),
    .init(
        name: "second BOM is part of the field name (ignored field)",
        stream: "\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n",
        expected: [SSEEvent(data: "b")]
    ),
    .init(
        name: "BOM later in the stream is content",
        stream: "data: \u{FEFF}a\n\n",
        expected: [SSEEvent(data: "\u{FEFF}a")]
    ),
    .init(
        name: "retry lines do not dispatch",
        stream: "retry: 5000\n\ndata: a\n\n",
        expected: [SSEEvent(data: "a")]
    ),
    .init(
        name: "comments anywhere, even inside a block",
        stream: "data: a\n: heartbeat\ndata: b\n\n",
        expected: [SSEEvent(data: "a\nb")]
    ),
    .init(
        name: "multibyte text",
        stream: "data: Gödel, Escher, Bach — 📚\n\n",
        expected: [SSEEvent(data: "Gödel, Escher, Bach — 📚")]
    ),
    .init(
        name: "stand-in job stream",
        stream:
            ": connection established\nretry: 5000\n\nid: 1700000000000-1\nevent: processing\ndata: {\"progress\":0.5}\n\n: heartbeat\n\nid: 1700000000000-2\nevent: completed\ndata: {\"progress\":1}\n\n",
        expected: [
            SSEEvent(type: "processing", data: "{\"progress\":0.5}", lastEventID: "1700000000000-1"),
            SSEEvent(type: "completed", data: "{\"progress\":1}", lastEventID: "1700000000000-2"),
        ]
    ),
]

@Suite("SSEParser: WHATWG rules")
struct SSEParserSpecTests {
    @Test(arguments: sseSpecCases)
    func specCase(_ testCase: SSESpecCase) {
        #expect(events(testCase.stream) == testCase.expected)
    }

    @Test func commentsSurfacedWithoutColonAndOneSpace() {
        let result = items(":no space\n:  two spaces\n: heartbeat\n:\n")
        #expect(result == [.comment("no space"), .comment(" two spaces"), .comment("heartbeat"), .comment("")])
    }

    @Test func commentsHiddenWhenDisabled() {
        #expect(items(": heartbeat\ndata: a\n\n", comments: false) == [.event(SSEEvent(data: "a"))])
    }

    @Test func retryAcceptsDigitsOnly() {
        var parser = SSEParser()
        #expect(parser.reconnectionTime == nil)
        let result = parser.feedItems(Array("retry: 5000\nretry: 12a\nretry: -1\nretry: 1.5\nretry:\nretry: \n".utf8))
        #expect(result == [.retry(milliseconds: 5000)])
        #expect(parser.reconnectionTime == 5000)
        _ = parser.feed(Array("retry:250\nretry 9\n".utf8))
        #expect(parser.reconnectionTime == 250)
        _ = parser.feed(Array("retry: 0\n".utf8))
        #expect(parser.reconnectionTime == 0)
    }

    @Test func retryHugeValueSaturates() {
        var parser = SSEParser()
        _ = parser.feed(Array("retry: 99999999999999999999999999\n".utf8))
        #expect(parser.reconnectionTime == Int.max)
    }

    @Test func retryWithSpaceNotStrippedTwiceIsIgnored() {
        var parser = SSEParser()
        _ = parser.feed(Array("retry:  100\n".utf8))
        #expect(parser.reconnectionTime == nil)
    }

    @Test func lastEventIDUpdatesOnIDOnlyBlock() {
        var parser = SSEParser()
        #expect(parser.feed(Array("id: abc\n\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "abc")
        // The buffer changes at once, the exposed string only at the block's end.
        _ = parser.feed(Array("id: def\n".utf8))
        #expect(parser.lastEventID == "abc")
        _ = parser.feed(Array("\n".utf8))
        #expect(parser.lastEventID == "def")
        _ = parser.feed(Array("id\n\n".utf8))
        #expect(parser.lastEventID == "")
    }

    @Test func finishDiscardsPartialEventAndLine() {
        var parser = SSEParser()
        #expect(parser.feed(Array("id: 9\ndata: partial\n".utf8)).isEmpty)
        parser.finish()
        #expect(parser.lastEventID == "")
        var other = SSEParser()
        #expect(other.feed(Array("data: a\n\ndata: cut".utf8)) == [SSEEvent(data: "a")])
        other.finish()
        #expect(other.feed([]).isEmpty)
    }

    @Test func eventsDispatchImmediatelyOnCR() {
        // A trailing CR must not wait for a possible LF in the next chunk.
        var parser = SSEParser()
        #expect(parser.feed(Array("data: a\r\r".utf8)) == [SSEEvent(data: "a")])
        #expect(parser.feed(Array("\ndata: b\r\n\r\n".utf8)) == [SSEEvent(data: "b")])
    }

    @Test func crAtChunkEndThenLFCountsOnce() {
        var parser = SSEParser()
        var got = parser.feed(Array("data: a\r".utf8))
        got += parser.feed(Array("\ndata: b\r".utf8))
        got += parser.feed(Array("\n\r".utf8))
        got += parser.feed(Array("\n".utf8))
        #expect(got == [SSEEvent(data: "a\nb")])
    }

    @Test func invalidUTF8IsReplaced() {
        // Lone continuation byte, truncated 3-byte sequence, overlong, surrogate, invalid lead byte.
        #expect(events([0x64, 0x61, 0x74, 0x61, 0x3A, 0x80, 0x0A, 0x0A]) == [SSEEvent(data: "\u{FFFD}")])
        #expect(events(Array("data:".utf8) + [0xE2, 0x82, 0x0A, 0x0A]) == [SSEEvent(data: "\u{FFFD}")])
        #expect(events(Array("data:".utf8) + [0xE2, 0x82, 0x41, 0x0A, 0x0A]) == [SSEEvent(data: "\u{FFFD}A")])
        #expect(events(Array("data:".utf8) + [0xC0, 0xAF, 0x0A, 0x0A]) == [SSEEvent(data: "\u{FFFD}\u{FFFD}")])
        #expect(
            events(Array("data:".utf8) + [0xED, 0xA0, 0x80, 0x0A, 0x0A])
                == [SSEEvent(data: "\u{FFFD}\u{FFFD}\u{FFFD}")]
        )
        #expect(events(Array("data:".utf8) + [0xFF, 0x0A, 0x0A]) == [SSEEvent(data: "\u{FFFD}")])
        // A truncated sequence before the colon still separates name and value.
        #expect(
            events(Array("id".utf8) + [0xE2, 0x3A] + Array("x\ndata: d\n\n".utf8))
                == [SSEEvent(data: "d")]
        )
    }

    @Test func multibyteSplitAcrossChunks() {
        let bytes = Array("data: 📚é\n\n".utf8)
        for cut in 0...bytes.count {
            var parser = SSEParser()
            var got = parser.feed(bytes[..<cut])
            got += parser.feed(bytes[cut...])
            #expect(got == [SSEEvent(data: "📚é")], "cut at \(cut)")
        }
    }

    @Test func bomSplitAcrossChunks() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8)
        for cut in 0...3 {
            var parser = SSEParser()
            var got = parser.feed(bytes[..<cut])
            got += parser.feed(bytes[cut...])
            #expect(got == [SSEEvent(data: "a")])
        }
    }

    @Test func partialBOMIsContent() {
        // EF BB then 'd': not a BOM; the bytes form an invalid sequence in the field name.
        #expect(events([0xEF, 0xBB] + Array("data: a\n\ndata: b\n\n".utf8)) == [SSEEvent(data: "b")])
        // EF BB CR: the partial BOM bytes make a (garbage) line of their own.
        #expect(events([0xEF, 0xBB, 0x0D] + Array("data: a\n\n".utf8)) == [SSEEvent(data: "a")])
    }

    @Test func oversizedEventsAreDroppedAndCounted() {
        var parser = SSEParser(maximumEventLength: 8)
        let got = parser.feed(Array("id: 1\ndata: 1234\ndata: 5678\n\ndata: ok\n\ndata: 1234567\n\n".utf8))
        #expect(got == [SSEEvent(data: "ok", lastEventID: "1"), SSEEvent(data: "1234567", lastEventID: "1")])
        #expect(parser.droppedEvents == 1)
        #expect(parser.lastEventID == "1")
    }

    @Test func overlongLinesAreCutAndCounted() {
        var parser = SSEParser(maximumLineLength: 16)
        let got = parser.feed(Array("data: 0123456789abcdefghij\n\ndata: ok\n\n".utf8))
        #expect(got == [SSEEvent(data: "0123456789"), SSEEvent(data: "ok")])
        #expect(parser.truncatedLines == 1)
    }
}
