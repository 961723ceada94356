import BooksTrackClient
import BooksTrackSupport
import Testing

/// A sample stream using every feature at once: BOM, all three line endings, comments, retry,
/// ids (with reset), multibyte text, empty data, an id-only block and a trailing partial event.
private let sseSampleText: String = [
    ": connection established\r\n",
    "retry: 5000\r\n\r\n",
    "id: 1-1\nevent: initialized\ndata: {\"jobId\":\"j\",\"progress\":0}\n\n",
    "id: 1-2\revent: processing\rdata: Gödel 📚\rdata: second line\r\r",
    ": heartbeat\r\n",
    "data\r\n\r\n",
    "id: 1-3\r\n\r\n",
    "event: progress\ndata:  two spaces\nfoo: bar\n\n",
    "id\ndata: reset id\r\n\n",
    "data: partial, never dispatched",
].joined()
let sseSampleStream: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(sseSampleText.utf8)

private func parseAll(chunks: [ArraySlice<UInt8>]) -> (items: [SSEStreamItem], lastID: String, retry: Int?) {
    var parser = SSEParser()
    var items: [SSEStreamItem] = []
    for chunk in chunks { items += parser.feedItems(chunk) }
    parser.finish()
    return (items, parser.lastEventID, parser.reconnectionTime)
}

@Suite("SSEParser: chunking invariance and fuzz", .onWorkThreads)
struct SSEParserChunkingTests {
    let reference = parseAll(chunks: [sseSampleStream[...]])

    @Test func referenceParseIsWhatTheSpecSays() {
        let events = reference.items.compactMap { item -> SSEEvent? in
            if case .event(let event) = item { return event }
            return nil
        }
        #expect(
            events == [
                SSEEvent(type: "initialized", data: "{\"jobId\":\"j\",\"progress\":0}", lastEventID: "1-1"),
                SSEEvent(type: "processing", data: "Gödel 📚\nsecond line", lastEventID: "1-2"),
                SSEEvent(type: "message", data: "", lastEventID: "1-2"),
                SSEEvent(type: "progress", data: " two spaces", lastEventID: "1-3"),
                SSEEvent(type: "message", data: "reset id", lastEventID: ""),
            ]
        )
        #expect(reference.items.first == .comment("connection established"))
        #expect(reference.items.contains(.comment("heartbeat")))
        #expect(reference.items.contains(.retry(milliseconds: 5000)))
        #expect(reference.lastID == "")
        #expect(reference.retry == 5000)
    }

    @Test func everySingleSplitGivesTheSameItems() {
        for cut in 0...sseSampleStream.count {
            let result = parseAll(chunks: [sseSampleStream[..<cut], sseSampleStream[cut...]])
            #expect(result.items == reference.items, "split at byte \(cut)")
            #expect(result.lastID == reference.lastID)
        }
    }

    @Test func everyDoubleSplitGivesTheSameItems() {
        let count = sseSampleStream.count
        for first in stride(from: 0, through: count, by: 3) {
            for second in first...count {
                let chunks = [sseSampleStream[..<first], sseSampleStream[first..<second], sseSampleStream[second...]]
                let result = parseAll(chunks: chunks)
                #expect(result.items == reference.items, "splits at \(first), \(second)")
            }
        }
    }

    @Test func byteByByteGivesTheSameItems() {
        let chunks = sseSampleStream.indices.map { sseSampleStream[$0...$0] }
        #expect(parseAll(chunks: chunks).items == reference.items)
    }

    @Test(arguments: 0..<200)
    func randomSeededSplitsGiveTheSameItems(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        while start < sseSampleStream.count {
            let length = Int.random(in: 0...12, using: &random)
            let end = min(sseSampleStream.count, start + length)
            chunks.append(sseSampleStream[start..<end])
            start = end
        }
        #expect(parseAll(chunks: chunks).items == reference.items, "seed \(seed)")
    }

    @Test(arguments: 0..<100)
    func fuzzRandomBytes(seed: UInt64) {
        var random = SplitMix64(seed: seed &* 7919)
        // Biased alphabet so that fields, colons and line ends actually occur.
        let alphabet: [UInt8] =
            Array("data:id event retry: 12\u{0}".utf8) + [0x0A, 0x0D, 0x0D, 0x0A, 0xEF, 0xBB, 0xBF, 0x80, 0xF0, 0xFF]
        let length = Int.random(in: 0...600, using: &random)
        let bytes: [UInt8] = (0..<length).map { _ in
            Bool.random(using: &random)
                ? alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                : UInt8.random(in: 0...255, using: &random)
        }
        let whole = parseAll(chunks: [bytes[...]])
        // Invariant 1: chunking never changes the result.
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int.random(in: 1...9, using: &random))
            chunks.append(bytes[start..<end])
            start = end
        }
        let split = parseAll(chunks: chunks)
        #expect(split.items == whole.items)
        #expect(split.lastID == whole.lastID)
        #expect(split.retry == whole.retry)
        // Invariant 2: structural properties of what is dispatched.
        for item in whole.items {
            switch item {
            case .event(let event):
                #expect(!event.type.isEmpty)
                #expect(!event.type.unicodeScalars.contains { $0 == "\n" || $0 == "\r" })
                #expect(!event.data.unicodeScalars.contains("\r"))
                #expect(!event.lastEventID.unicodeScalars.contains { $0 == "\u{0}" || $0 == "\n" || $0 == "\r" })
            case .comment(let text):
                #expect(!text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" })
            case .retry(let milliseconds):
                #expect(milliseconds >= 0)
            }
        }
    }
}
