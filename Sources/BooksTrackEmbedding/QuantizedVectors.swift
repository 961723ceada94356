import Foundation

/// Unit vectors stored compactly: int8 components with one scale per vector. The file
/// (little-endian; `Sources/BooksTrackCatalog/Resources/book-vectors.bin`, docs/meaning.md):
///
///     "BTSVEC01"                    8 bytes
///     UInt32 n                      length of the stamp
///     n bytes                       the stamp, JSON (`Stamp`)
///     count × Int32                 the vectors' ids
///     count × Float32               their scales
///     count × dimension × Int8      their components
///
/// A vector is `component × scale`; the scale is 1 / ‖components‖, so the vector is unit length as
/// stored. The components are used in place from the mapped file; a query is quantized the same way
/// and its cosines are integer dot products (3.8 MB read per query, not the 15 MB of a Float32
/// matrix). Quantizing both sides moves a cosine by a few thousandths.
package struct QuantizedVectors: @unchecked Sendable {
    // @unchecked: immutable; `components` points into `file`'s read-only mapping, kept alive here.
    /// What the vectors were made from: a file whose stamp does not match the running model or
    /// catalog is stale.
    package struct Stamp: Codable, Sendable, Hashable {
        package var model: String
        /// sha256 of `model.safetensors` (hex).
        package var modelSHA256: String
        package var modelBytes: Int
        /// The catalog's content hash (catalog.tsv and shelves.tsv) the texts came from.
        package var catalog: String
        /// How each text was made (the recipe, in words).
        package var text: String
        package var count: Int
        package var dimension: Int

        package init(
            model: String,
            modelSHA256: String,
            modelBytes: Int,
            catalog: String,
            text: String,
            count: Int,
            dimension: Int
        ) {
            self.model = model
            self.modelSHA256 = modelSHA256
            self.modelBytes = modelBytes
            self.catalog = catalog
            self.text = text
            self.count = count
            self.dimension = dimension
        }

        enum CodingKeys: String, CodingKey {
            case model
            case modelSHA256 = "model_sha256"
            case modelBytes = "model_bytes"
            case catalog, text, count, dimension
        }
    }

    package enum FormatError: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadable(String)
        case malformed(String)

        package var description: String {
            switch self {
            case .unreadable(let path): return "cannot read the book vectors \(path)"
            case .malformed(let why): return "malformed book vectors: \(why)"
            }
        }
    }

    static let magic = Array("BTSVEC01".utf8)

    package let stamp: Stamp
    package let ids: [Int32]
    let scales: [Float]
    let file: MappedFile
    /// count × dimension, row-major.
    let components: UnsafeBufferPointer<Int8>

    /// Only the stamp of the file at `url` (reads its first bytes).
    package static func stamp(at url: URL) throws(FormatError) -> Stamp {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw .unreadable(url.path) }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 12), head.count == 12 else {
            throw .malformed("shorter than its header")
        }
        let length = try headerLength(head)
        guard let json = try? handle.read(upToCount: length), json.count == length else { throw .malformed("stamp") }
        return try decodeStamp(json)
    }

    /// Reads the file at `url` (its stamp, ids, scales and components).
    package init(contentsOf url: URL) throws(FormatError) {
        guard let file = MappedFile(path: url.path) else { throw .unreadable(url.path) }
        let bytes = file.bytes
        guard bytes.count >= 12 else { throw .malformed("shorter than its header") }
        let length = try Self.headerLength(Data(UnsafeRawBufferPointer(rebasing: bytes[0..<12])))
        guard 12 + length <= bytes.count else { throw .malformed("stamp") }
        let stamp = try Self.decodeStamp(Data(UnsafeRawBufferPointer(rebasing: bytes[12..<(12 + length)])))
        let count = stamp.count
        let d = stamp.dimension
        let idsAt = 12 + length
        let scalesAt = idsAt + 4 * count
        let valuesAt = scalesAt + 4 * count
        guard count >= 0, d > 0, valuesAt + count * d == bytes.count else { throw .malformed("size") }
        var ids = [Int32](repeating: 0, count: count)
        var scales = [Float](repeating: 0, count: count)
        for i in 0..<count {
            ids[i] = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: idsAt + 4 * i, as: Int32.self))
            scales[i] = Float(
                bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: scalesAt + 4 * i, as: UInt32.self))
            )
        }
        self.stamp = stamp
        self.ids = ids
        self.scales = scales
        self.file = file
        let start = bytes.baseAddress.map { ($0 + valuesAt).bindMemory(to: Int8.self, capacity: count * d) }
        components = UnsafeBufferPointer(start: start, count: count * d)
    }

    /// Vector `row` as Float32 (unit length).
    package func vector(at row: Int) -> [Float] {
        let d = stamp.dimension
        return (0..<d).map { Float(components[row * d + $0]) * scales[row] }
    }

    /// The file's bytes for `vectors` (each of `stamp.dimension` components, any length but not zero).
    package static func encode(stamp: Stamp, ids: [Int32], vectors: [[Float]]) -> Data {
        var out = Data(magic)
        let json = (try? JSONEncoder.sorted.encode(stamp)) ?? Data()
        append(UInt32(json.count), to: &out)
        out.append(json)
        for id in ids { append(UInt32(bitPattern: id), to: &out) }
        var components = [UInt8]()
        components.reserveCapacity(vectors.count * stamp.dimension)
        for vector in vectors {
            let top = vector.map { abs($0) }.max() ?? 0
            let q = vector.map { top > 0 ? Int8(($0 / top * 127).rounded()) : 0 }
            let norm = q.reduce(Float(0)) { $0 + Float($1) * Float($1) }.squareRoot()
            append((norm > 0 ? 1 / norm : 0).bitPattern, to: &out)
            components.append(contentsOf: q.map { UInt8(bitPattern: $0) })
        }
        out.append(contentsOf: components)
        return out
    }

    /// The cosine of every vector with `query` (unit length), by integer dot products of the
    /// int8 components with the query quantized to int8.
    package func cosines(_ query: [Float]) -> [Float] {
        let d = stamp.dimension
        let count = ids.count
        var out = [Float](repeating: 0, count: count)
        guard query.count == d, count > 0 else { return out }
        let top = query.map { abs($0) }.max() ?? 0
        guard top > 0 else { return out }
        let queryScale = top / 127
        let q = query.map { Int16(($0 / queryScale).rounded()) }
        q.withUnsafeBufferPointer { q in
            out.withUnsafeMutableBufferPointer { out in
                for row in 0..<count {
                    let base = row * d
                    var dot: Int32 = 0
                    // |component| and |q| ≤ 127: 384 products of at most 16,129 fit in Int32.
                    for j in 0..<d { dot &+= Int32(truncatingIfNeeded: Int16(components[base &+ j]) &* q[j]) }
                    out[row] = Float(dot) * scales[row] * queryScale
                }
            }
        }
        return out
    }

    static func headerLength(_ head: Data) throws(FormatError) -> Int {
        guard head.count >= 12, Array(head.prefix(8)) == magic else { throw .malformed("not a book vectors file") }
        let length = head.dropFirst(8).prefix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length < 1 << 16 else { throw .malformed("stamp length") }
        return length
    }

    static func decodeStamp(_ json: Data) throws(FormatError) -> Stamp {
        guard let stamp = try? JSONDecoder().decode(Stamp.self, from: json) else { throw .malformed("stamp") }
        return stamp
    }

    static func append(_ value: UInt32, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}

extension JSONEncoder {
    /// Sorted keys, no escaped slashes: the same stamp always has the same bytes.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
