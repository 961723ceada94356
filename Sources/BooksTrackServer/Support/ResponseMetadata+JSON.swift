import BooksTrackContract
import NIOCore

extension ResponseMetadata {
    /// Writes this metadata as the contract's encoder does (keys in declaration order, absent
    /// values left out, no escaped slashes): every enveloped response carries one, so it is
    /// written by hand. `ResponseMetadataJSONTests` holds it to the encoder's bytes.
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
