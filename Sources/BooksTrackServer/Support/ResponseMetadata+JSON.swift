import BooksTrackContract
import NIOCore

extension ResponseMetadata {
    /// Writes this metadata as the contract's encoder does (absent values left out, strings escaped
    /// alike, no escaped slashes; keys in declaration order, where the encoder's order is
    /// unspecified): every enveloped response carries one, so it is written by hand.
    /// `EncodedEnvelopeTests` holds it to the encoder's JSON.
    func writeJSON(to buffer: inout ByteBuffer) {
        buffer.writeStaticString(#"{"timestamp":"#)
        JSONText.writeString(timestamp, to: &buffer)
        if let processingTime {
            buffer.writeStaticString(#","processingTime":"#)
            buffer.writeString(String(processingTime))
        }
        if let provider {
            buffer.writeStaticString(#","provider":"#)
            JSONText.writeString(provider, to: &buffer)
        }
        if let cached {
            buffer.writeStaticString(cached ? #","cached":true"# : #","cached":false"#)
        }
        if let source {
            buffer.writeStaticString(#","source":"#)
            JSONText.writeString(source, to: &buffer)
        }
        if let searchMode {
            buffer.writeStaticString(#","searchMode":"#)
            JSONText.writeString(searchMode.rawValue, to: &buffer)
        }
        buffer.writeStaticString("}")
    }
}
