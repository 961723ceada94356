import Foundation
import TestSupport
import Testing

@testable import BooksTrackEmbedding

/// `SafeTensors.tensors(in:)`: a well-formed header's F32 tensors, and one plain `malformed` for
/// every header that is not, however large or negative its numbers (no trap).
@Suite(.onWorkThreads) struct SafeTensorsHeaderTests {
    /// A file: 8-byte little-endian header length, `header`, then `data` bytes.
    static func file(_ header: String, data: Int) -> [UInt8] {
        let json = Array(header.utf8)
        let length = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(json.count) >> (8 * UInt64($0))) }
        return length + json + [UInt8](repeating: 0, count: data)
    }

    static func tensors(_ bytes: [UInt8]) throws(SafeTensors.LoadError) -> [String: SafeTensors.Tensor] {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(SafeTensors.LoadError) in try SafeTensors.tensors(in: raw) }
        }
        return try result.get()
    }

    @Test func readsF32TensorsAndSkipsTheRest() throws {
        // A header of 8 + 112 bytes keeps the data 4-byte aligned (8 + 112 = 120).
        var header =
            #"{"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},"#
            + #""b":{"dtype":"F16","shape":[2],"data_offsets":[24,28]}}"#
        while (8 + header.utf8.count) % 4 != 0 { header += " " }
        let tensors = try Self.tensors(Self.file(header, data: 28))
        #expect(tensors.keys.sorted() == ["a"])
        #expect(tensors["a"]?.shape == [2, 3])
        #expect(tensors["a"]?.offset == 8 + header.utf8.count)
    }

    @Test(arguments: [
        (#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[-8,0]}}"#, "a"),
        (#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,9223372036854775807]}}"#, "a"),
        (#"{"a":{"dtype":"F32","shape":[9223372036854775807,9223372036854775807],"data_offsets":[0,8]}}"#, "a"),
        (#"{"a":{"dtype":"F32","shape":[-1,-2],"data_offsets":[0,8]}}"#, "a"),
        (#"{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}"#, "a"),
        (#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}}"#, "a"),
        (#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0]}}"#, "a"),
        (#"{"a":{"dtype":"F32","shape":[2.5],"data_offsets":[0,8]}}"#, "a"),
        (#"{"a":"F32"}"#, "a"),
        (#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}"#, "header JSON"),
        (#"[1,2]"#, "header JSON"),
    ])
    func aMalformedHeaderIsOneError(header: String, what: String) {
        #expect(throws: SafeTensors.LoadError.malformed(what)) { try Self.tensors(Self.file(header, data: 64)) }
    }

    @Test func aShortFileOrAnOverlongHeaderLength() {
        #expect(throws: SafeTensors.LoadError.malformed("shorter than its header")) { try Self.tensors([1, 0, 0]) }
        #expect(throws: SafeTensors.LoadError.malformed("header length")) {
            try Self.tensors([255, 255, 255, 255, 255, 255, 255, 255, 0x7b, 0x7d])
        }
    }
}
