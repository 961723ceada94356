// Fuzz target: the SSE parser (BooksTrackClient/SSE). Differential: the same bytes fed whole and
// fed in chunks (cut where the first byte says) must give the same items.
func fuzzOne(_ bytes: [UInt8]) {
    var whole = SSEParser(surfacesComments: true, maximumLineLength: 4096, maximumEventLength: 16384)
    var items = whole.feedItems(bytes)
    whole.finish()
    let step = 1 + Int(bytes.first ?? 0) % 7
    var chunked = SSEParser(surfacesComments: true, maximumLineLength: 4096, maximumEventLength: 16384)
    var pieces: [SSEStreamItem] = []
    var index = 0
    while index < bytes.count {
        let end = min(bytes.count, index + step)
        pieces += chunked.feedItems(bytes[index..<end])
        index = end
    }
    chunked.finish()
    invariant(items == pieces, "chunked feeding changed the events (\(items.count) vs \(pieces.count))")
    invariant(whole.lastEventID == chunked.lastEventID, "chunked feeding changed the last event id")
    items.removeAll()
}
