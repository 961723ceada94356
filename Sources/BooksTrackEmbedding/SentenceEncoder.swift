import Foundation

/// all-MiniLM-L6-v2 in process: a 6-layer BERT encoder (hidden 384, 12 heads, feed-forward 1536,
/// exact GELU, layer norm ε 1e-12) over OpenBLAS, mean-pooled over the tokens and L2-normalised,
/// as sentence-transformers computes it (OpenBLAS loaded at run time, `OpenBLAS`). Weights from the model directory's `model.safetensors`,
/// the vocabulary from its `vocab.txt` (`scripts/setup` puts them in place). The weights are
/// read in place from the mapped file (`SafeTensors`): loading maps the file and parses the
/// vocabulary, and a query pages in only the rows of the words it uses.
package final class SentenceEncoder: @unchecked Sendable {
    // @unchecked: every stored property is immutable; the weight pointers point into `weights`'
    // read-only mapping, which this object keeps alive.
    package static let dimension = 384
    static let layers = 6
    static let heads = 12
    static let headSize = 32
    static let feedForward = 1536
    static let maxPositions = 512

    package enum LoadError: Error, Sendable, CustomStringConvertible {
        case tokenizer(WordPieceTokenizer.LoadError)
        case weights(SafeTensors.LoadError)

        package var description: String {
            switch self {
            case .tokenizer(let error): return error.description
            case .weights(let error): return error.description
            }
        }
    }

    struct Linear {
        let weight: UnsafeBufferPointer<Float>  // out × in, row-major (PyTorch's layout)
        let bias: UnsafeBufferPointer<Float>
        let inputs: Int
        let outputs: Int
    }

    struct Norm {
        let gain: UnsafeBufferPointer<Float>
        let bias: UnsafeBufferPointer<Float>
    }

    struct Layer {
        let query, key, value, attentionOutput, intermediate, output: Linear
        let attentionNorm, outputNorm: Norm
    }

    package let tokenizer: WordPieceTokenizer
    let blas: OpenBLAS
    let weights: SafeTensors
    let wordEmbeddings: UnsafeBufferPointer<Float>
    let positionEmbeddings: UnsafeBufferPointer<Float>
    let typeEmbedding: UnsafeBufferPointer<Float>
    let embeddingNorm: Norm
    let encoderLayers: [Layer]

    /// Loads `vocab.txt` and `model.safetensors` from `directory`; products go through `blas`.
    package convenience init(directory: URL, blas: OpenBLAS) throws(LoadError) {
        let weights = try Self.mapWeights(directory)
        try self.init(tokenizer: Self.loadTokenizer(directory), weights: weights, blas: blas)
    }

    /// Maps `model.safetensors` (reads its header only), or reads it whole into the process's own
    /// memory when `weightsInOwnMemory`.
    static func mapWeights(_ directory: URL) throws(LoadError) -> SafeTensors {
        do {
            return try SafeTensors(
                contentsOf: directory.appendingPathComponent("model.safetensors"),
                copied: weightsInOwnMemory
            )
        } catch {
            throw .weights(error)
        }
    }

    /// Reads `vocab.txt` into the tokenizer's table.
    static func loadTokenizer(_ directory: URL) throws(LoadError) -> WordPieceTokenizer {
        do {
            return try WordPieceTokenizer(vocabularyAt: directory.appendingPathComponent("vocab.txt"))
        } catch {
            throw .tokenizer(error)
        }
    }

    /// The encoder over a mapped weights file (each tensor is a view into it).
    init(tokenizer: WordPieceTokenizer, weights file: SafeTensors, blas: OpenBLAS) throws(LoadError) {
        self.blas = blas
        self.tokenizer = tokenizer
        weights = file
        do throws(SafeTensors.LoadError) {
            let d = Self.dimension
            func linear(_ name: String, _ outputs: Int, _ inputs: Int) throws(SafeTensors.LoadError) -> Linear {
                Linear(
                    weight: try file.values(name + ".weight", shape: [outputs, inputs]),
                    bias: try file.values(name + ".bias", shape: [outputs]),
                    inputs: inputs,
                    outputs: outputs
                )
            }
            func norm(_ name: String) throws(SafeTensors.LoadError) -> Norm {
                Norm(
                    gain: try file.values(name + ".weight", shape: [d]),
                    bias: try file.values(name + ".bias", shape: [d])
                )
            }
            guard let words = file.tensors["embeddings.word_embeddings.weight"], words.shape.count == 2,
                words.shape[1] == d
            else { throw SafeTensors.LoadError.missing("embeddings.word_embeddings.weight") }
            wordEmbeddings = file.floats(words)
            positionEmbeddings = try file.values(
                "embeddings.position_embeddings.weight",
                shape: [Self.maxPositions, d]
            )
            typeEmbedding = UnsafeBufferPointer(
                rebasing: try file.values("embeddings.token_type_embeddings.weight", shape: [2, d]).prefix(d)
            )
            embeddingNorm = try norm("embeddings.LayerNorm")
            var layers: [Layer] = []
            for l in 0..<Self.layers {
                let p = "encoder.layer.\(l)."
                layers.append(
                    Layer(
                        query: try linear(p + "attention.self.query", d, d),
                        key: try linear(p + "attention.self.key", d, d),
                        value: try linear(p + "attention.self.value", d, d),
                        attentionOutput: try linear(p + "attention.output.dense", d, d),
                        intermediate: try linear(p + "intermediate.dense", Self.feedForward, d),
                        output: try linear(p + "output.dense", d, Self.feedForward),
                        attentionNorm: try norm(p + "attention.output.LayerNorm"),
                        outputNorm: try norm(p + "output.LayerNorm")
                    )
                )
            }
            encoderLayers = layers
        } catch {
            throw .weights(error)
        }
    }

    /// The unit-length sentence vector of `text`.
    package func encode(_ text: String) -> [Float] {
        encode(ids: tokenizer.encode(text))
    }

    /// The unit-length sentence vector of token ids (`[CLS]` … `[SEP]`, at most 512).
    package func encode(ids: [Int32]) -> [Float] {
        let d = Self.dimension
        let n = min(ids.count, Self.maxPositions)
        guard n > 0 else { return [Float](repeating: 0, count: d) }
        let rows = Self.paddedRows(n)
        let vocabulary = wordEmbeddings.count / d
        var x = [Float](repeating: 0, count: rows * d)
        for t in 0..<n {
            let id = Int(ids[t])
            let word = (0..<vocabulary).contains(id) ? id : 0
            for j in 0..<d {
                x[t * d + j] = wordEmbeddings[word * d + j] + positionEmbeddings[t * d + j] + typeEmbedding[j]
            }
        }
        Self.normalize(&x, rows: n, embeddingNorm)
        for layer in encoderLayers { forward(layer, &x, tokens: n, rows: rows) }
        var pooled = [Float](repeating: 0, count: d)
        for t in 0..<n { for j in 0..<d { pooled[j] += x[t * d + j] } }
        let norm = pooled.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? pooled.map { $0 / norm } : pooled
    }

    /// The rows a pass over `tokens` tokens multiplies: a multiple of 4, because OpenBLAS's sgemm
    /// (its Haswell kernels) is much slower on a row count that is not (docs/meaning.md). The extra
    /// rows are zeros: a product's rows do not mix, attention and pooling read the token rows only,
    /// so they change nothing the vector is made of.
    static func paddedRows(_ tokens: Int) -> Int {
        (tokens + 3) / 4 * 4
    }

    /// One encoder layer over `x`'s first `tokens` rows, in place; `x` has `rows` rows (the rest
    /// are padding, `paddedRows`), which the products carry along and attention leaves out.
    func forward(_ layer: Layer, _ x: inout [Float], tokens n: Int, rows: Int) {
        let d = Self.dimension
        let q = apply(layer.query, x, rows: rows)
        let k = apply(layer.key, x, rows: rows)
        let v = apply(layer.value, x, rows: rows)
        var context = [Float](repeating: 0, count: rows * d)
        var scores = [Float](repeating: 0, count: n * n)
        let scale = 1 / Float(Self.headSize).squareRoot()
        for h in 0..<Self.heads {
            let offset = h * Self.headSize
            q.withUnsafeBufferPointer { q in
                k.withUnsafeBufferPointer { k in
                    scores.withUnsafeMutableBufferPointer { s in
                        blas.multiply(
                            m: n,
                            n: n,
                            k: Self.headSize,
                            alpha: scale,
                            q.baseAddress.map { $0 + offset },
                            lda: d,
                            k.baseAddress.map { $0 + offset },
                            ldb: d,
                            transposeB: true,
                            beta: 0,
                            s.baseAddress,
                            ldc: n
                        )
                    }
                }
            }
            for row in 0..<n {
                let base = row * n
                var top = -Float.infinity
                for c in 0..<n { top = max(top, scores[base + c]) }
                var sum: Float = 0
                for c in 0..<n {
                    let e = expf(scores[base + c] - top)
                    scores[base + c] = e
                    sum += e
                }
                for c in 0..<n { scores[base + c] /= sum }
            }
            scores.withUnsafeBufferPointer { s in
                v.withUnsafeBufferPointer { v in
                    context.withUnsafeMutableBufferPointer { c in
                        blas.multiply(
                            m: n,
                            n: Self.headSize,
                            k: n,
                            s.baseAddress,
                            lda: n,
                            v.baseAddress.map { $0 + offset },
                            ldb: d,
                            transposeB: false,
                            beta: 0,
                            c.baseAddress.map { $0 + offset },
                            ldc: d
                        )
                    }
                }
            }
        }
        let attended = apply(layer.attentionOutput, context, rows: rows)
        for i in 0..<(n * d) { x[i] += attended[i] }
        Self.normalize(&x, rows: n, layer.attentionNorm)
        var hidden = apply(layer.intermediate, x, rows: rows)
        hidden.withUnsafeMutableBufferPointer { h in
            for i in 0..<(n * Self.feedForward) { h[i] = 0.5 * h[i] * (1 + Self.erf(h[i] * Float(0.5).squareRoot())) }
        }
        let out = apply(layer.output, hidden, rows: rows)
        for i in 0..<(n * d) { x[i] += out[i] }
        Self.normalize(&x, rows: n, layer.outputNorm)
    }

    /// `input · weightᵀ + bias` for `rows` rows.
    func apply(_ linear: Linear, _ input: [Float], rows n: Int) -> [Float] {
        var out = [Float](repeating: 0, count: n * linear.outputs)
        for r in 0..<n { for o in 0..<linear.outputs { out[r * linear.outputs + o] = linear.bias[o] } }
        input.withUnsafeBufferPointer { a in
            out.withUnsafeMutableBufferPointer { c in
                blas.multiply(
                    m: n,
                    n: linear.outputs,
                    k: linear.inputs,
                    a.baseAddress,
                    lda: linear.inputs,
                    linear.weight.baseAddress,
                    ldb: linear.inputs,
                    transposeB: true,
                    beta: 1,
                    c.baseAddress,
                    ldc: linear.outputs
                )
            }
        }
        return out
    }

    /// erf(x) within 1.5e-7 (Abramowitz and Stegun 7.1.26), for the exact GELU: cheaper than libm's
    /// `erff`, which the forward pass calls for every activation.
    @inline(__always)
    static func erf(_ x: Float) -> Float {
        let a = abs(x)
        let t = 1 / (1 + 0.327_591_1 * a)
        let poly =
            ((((1.061_405_429 * t - 1.453_152_027) * t + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592) * t
        let y = 1 - poly * expf(-a * a)
        return x < 0 ? -y : y
    }

    /// Layer norm of each row (ε 1e-12), in place.
    static func normalize(_ x: inout [Float], rows n: Int, _ norm: Norm) {
        let d = dimension
        for r in 0..<n {
            let base = r * d
            var mean: Float = 0
            for j in 0..<d { mean += x[base + j] }
            mean /= Float(d)
            var variance: Float = 0
            for j in 0..<d { variance += (x[base + j] - mean) * (x[base + j] - mean) }
            variance /= Float(d)
            let scale = 1 / (variance + 1e-12).squareRoot()
            for j in 0..<d { x[base + j] = (x[base + j] - mean) * scale * norm.gain[j] + norm.bias[j] }
        }
    }
}
