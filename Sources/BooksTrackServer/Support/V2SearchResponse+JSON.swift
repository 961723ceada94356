import BooksTrackContract
import NIOCore

extension V2SearchResponse {
    /// This response as the contract's encoder writes it (the same keys, string escapes and number
    /// text; keys in declaration order), by hand: the generic encoder is a large share of a search
    /// response's time. `EncodedEnvelopeTests` holds it to the encoder's JSON over real
    /// catalog results. `nil` when
    /// a score is not finite (the encoder would throw; the caller falls back to it for the error).
    func encodedJSON() -> EncodedJSON? {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(160 + results.count * 200)
        buffer.writeStaticString(#"{"query":{"q":"#)
        JSONText.writeString(query.q, to: &buffer)
        buffer.writeStaticString(#","mode":"#)
        JSONText.writeString(query.mode.rawValue, to: &buffer)
        buffer.writeStaticString(#","limit":"#)
        buffer.writeString(String(query.limit))
        buffer.writeStaticString(#","offset":"#)
        buffer.writeString(String(query.offset))
        buffer.writeStaticString(#"},"results":["#)
        for (index, hit) in results.enumerated() {
            guard let score = JSONText.number(hit.score) else { return nil }
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            buffer.writeInteger(UInt8(ascii: "{"))
            if let isbn = hit.isbn {
                buffer.writeStaticString(#""isbn":"#)
                JSONText.writeString(isbn, to: &buffer)
                buffer.writeInteger(UInt8(ascii: ","))
            }
            buffer.writeStaticString(#""title":"#)
            JSONText.writeString(hit.title, to: &buffer)
            buffer.writeStaticString(#","authors":"#)
            JSONText.writeStrings(hit.authors, to: &buffer)
            if let coverUrl = hit.coverUrl {
                buffer.writeStaticString(#","coverUrl":"#)
                JSONText.writeString(coverUrl, to: &buffer)
            }
            if let year = hit.publishedYear {
                buffer.writeStaticString(#","publishedYear":"#)
                buffer.writeString(String(year))
            }
            buffer.writeStaticString(#","score":"#)
            buffer.writeString(score)
            buffer.writeInteger(UInt8(ascii: "}"))
        }
        buffer.writeStaticString(#"],"totalCount":"#)
        buffer.writeString(String(totalCount))
        if let correctedQuery {
            buffer.writeStaticString(#","correctedQuery":"#)
            JSONText.writeString(correctedQuery, to: &buffer)
        }
        buffer.writeInteger(UInt8(ascii: "}"))
        return EncodedJSON(bytes: buffer)
    }
}
