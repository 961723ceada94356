import Foundation

/// The F32 tensors of a `.safetensors` file (8-byte little-endian header length, a JSON header of
/// `name → {dtype, shape, data_offsets}`, then the raw data), read in place from the mapped file:
/// a tensor is a pointer into the mapping, valid while this value (its `file`) lives. Other dtypes
/// are skipped. Little-endian hosts only (the file's byte order).
package struct SafeTensors: Sendable {
    package enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadable(String)
        case malformed(String)
        case missing(String)
        case badShape(String)

        package var description: String {
            switch self {
            case .unreadable(let path): return "cannot read \(path)"
            case .malformed(let why): return "malformed safetensors file: \(why)"
            case .missing(let name): return "the model has no tensor \(name)"
            case .badShape(let name): return "the tensor \(name) has an unexpected shape"
            }
        }
    }

    package struct Tensor: Sendable {
        package var shape: [Int]
        /// Byte offset of the values in the file (4-byte aligned).
        var offset: Int
    }

    package let file: MappedFile
    package let tensors: [String: Tensor]

    /// `copied`: the weights are read into the process's own memory (``MappedFile``) rather than
    /// used from a mapping of the file.
    package init(contentsOf url: URL, copied: Bool = false) throws(LoadError) {
        #if _endian(big)
        throw .malformed("a big-endian host cannot use the little-endian weights in place")
        #else
        guard let file = MappedFile(path: url.path, hugePages: true, copied: copied) else {
            throw .unreadable(url.path)
        }
        let tensors = try Self.tensors(in: file.bytes)
        self.file = file
        self.tensors = tensors
        #endif
    }

    /// The values of tensor `name`, which must have `shape` (a view into the mapped file).
    package func values(_ name: String, shape: [Int]) throws(LoadError) -> UnsafeBufferPointer<Float> {
        guard let tensor = tensors[name] else { throw .missing(name) }
        guard tensor.shape == shape else { throw .badShape(name) }
        return floats(tensor)
    }

    func floats(_ tensor: Tensor) -> UnsafeBufferPointer<Float> {
        let count = tensor.shape.reduce(1, *)
        guard let base = file.bytes.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(
            start: (base + tensor.offset).bindMemory(to: Float.self, capacity: count),
            count: count
        )
    }
}
