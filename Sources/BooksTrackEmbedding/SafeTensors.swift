import Foundation

/// The F32 tensors of a `.safetensors` file (8-byte little-endian header length, a JSON header of
/// `name → {dtype, shape, data_offsets}`, then the raw data). Other dtypes are skipped.
public struct SafeTensors: Sendable {
    public enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadable(String)
        case malformed(String)
        case missing(String)
        case badShape(String)

        public var description: String {
            switch self {
            case .unreadable(let path): return "cannot read \(path)"
            case .malformed(let why): return "malformed safetensors file: \(why)"
            case .missing(let name): return "the model has no tensor \(name)"
            case .badShape(let name): return "the tensor \(name) has an unexpected shape"
            }
        }
    }

    public struct Tensor: Sendable {
        public var shape: [Int]
        public var values: [Float]
    }

    public let tensors: [String: Tensor]

    public init(contentsOf url: URL) throws(LoadError) {
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe) else { throw .unreadable(url.path) }
        guard data.count >= 8 else { throw .malformed("shorter than its header") }
        let headerLength = data.prefix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        guard headerLength < UInt64(data.count - 8) else { throw .malformed("header length") }
        let body = 8 + Int(headerLength)
        guard let header = try? JSONSerialization.jsonObject(with: data[8..<body]) as? [String: Any] else {
            throw .malformed("header JSON")
        }
        var tensors: [String: Tensor] = [:]
        for (name, entry) in header where name != "__metadata__" {
            guard let info = entry as? [String: Any], let dtype = info["dtype"] as? String,
                  let shape = info["shape"] as? [Int], let offsets = info["data_offsets"] as? [Int], offsets.count == 2
            else { throw .malformed(name) }
            guard dtype == "F32" else { continue }
            let start = body + offsets[0], end = body + offsets[1]
            guard start <= end, end <= data.count, (end - start) == shape.reduce(1, *) * 4 else { throw .malformed(name) }
            // Little-endian F32 as the file stores it, copied whole (swapped on a big-endian host).
            let count = (end - start) / 4
            var values = data[start..<end].withUnsafeBytes { raw in
                [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
                    if let base = buffer.baseAddress, let source = raw.baseAddress { memcpy(base, source, count * 4) }
                    initialized = count
                }
            }
            #if _endian(big)
            values = values.map { Float(bitPattern: $0.bitPattern.byteSwapped) }
            #endif
            tensors[name] = Tensor(shape: shape, values: values)
        }
        self.tensors = tensors
    }

    /// The values of tensor `name`, which must have `shape`.
    public func values(_ name: String, shape: [Int]) throws(LoadError) -> [Float] {
        guard let tensor = tensors[name] else { throw .missing(name) }
        guard tensor.shape == shape else { throw .badShape(name) }
        return tensor.values
    }
}
