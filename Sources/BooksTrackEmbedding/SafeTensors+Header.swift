import Foundation

extension SafeTensors {
    /// A header entry: a tensor's description, or nil for any other value (`__metadata__`).
    struct HeaderEntry: Decodable {
        struct Description: Decodable {
            var dtype: String
            var shape: [Int]
            var dataOffsets: [Int]
            enum CodingKeys: String, CodingKey {
                case dtype, shape
                case dataOffsets = "data_offsets"
            }
        }
        var tensor: Description?

        init(from decoder: any Decoder) throws {
            tensor = try? Description(from: decoder)
        }
    }

    /// The F32 tensors a safetensors file's bytes describe (other dtypes are left out), each checked
    /// to lie inside `data`, 4-byte aligned and exactly as long as its shape says; any other header
    /// is `malformed`. Offsets and shapes from the file are never summed or multiplied unchecked.
    static func tensors(in data: UnsafeRawBufferPointer) throws(LoadError) -> [String: Tensor] {
        guard data.count >= 8 else { throw .malformed("shorter than its header") }
        let headerLength = (0..<8).reduce(UInt64(0)) { $0 | UInt64(data[$1]) << (8 * UInt64($1)) }
        guard headerLength < UInt64(data.count - 8) else { throw .malformed("header length") }
        let body = 8 + Int(headerLength)
        let headerData = Data(UnsafeRawBufferPointer(rebasing: data[8..<body]))
        // JSONDecoder, not JSONSerialization, which makes a Foundation object per value; the
        // decoder is already warm in bts.
        guard let header = try? JSONDecoder().decode([String: HeaderEntry].self, from: headerData) else {
            throw .malformed("header JSON")
        }
        var tensors: [String: Tensor] = [:]
        for (name, entry) in header where name != "__metadata__" {
            guard let info = entry.tensor else { throw .malformed(name) }
            guard info.dtype == "F32" else { continue }
            let shape = info.shape
            let offsets = info.dataOffsets
            // Offsets within the data before any sum; a shape's product saturates instead of trapping.
            guard offsets.count == 2, shape.allSatisfy({ $0 >= 0 }), offsets[0] >= 0, offsets[0] <= offsets[1],
                offsets[1] <= data.count - body
            else { throw .malformed(name) }
            let start = body + offsets[0]
            let end = body + offsets[1]
            let count = shape.reduce(1) { $0.multipliedReportingOverflow(by: $1).overflow ? Int.max : $0 * $1 }
            guard count < Int.max / 4, end - start == count * 4, start % 4 == 0 else { throw .malformed(name) }
            tensors[name] = Tensor(shape: shape, offset: start)
        }
        return tensors
    }
}
