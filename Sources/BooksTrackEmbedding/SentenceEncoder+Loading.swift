import Foundation

extension SafeTensors {
    /// Reads one byte of every page of the tensors named `prefix…` (one range from the first to the
    /// last): the page faults of their first use, taken ahead of it. Returns a checksum so the
    /// reads are not optimised away.
    @discardableResult
    func touchPages(ofTensorsNamed prefix: String) -> UInt8 {
        let ranges = tensors.filter { $0.key.hasPrefix(prefix) }
            .map { (start: $0.value.offset, end: $0.value.offset + 4 * $0.value.shape.reduce(1, *)) }
        guard let base = file.bytes.baseAddress, let low = ranges.map(\.start).min(), let high = ranges.map(\.end).max()
        else {
            return 0
        }
        let page = 4096
        var sum: UInt8 = 0
        var at = low
        while at < high {
            sum &+= base.load(fromByteOffset: at, as: UInt8.self)
            at += page
        }
        return sum
    }
}

extension SentenceEncoder {
    /// Loads the encoder from `directory` with OpenBLAS from `environment`: OpenBLAS's `dlopen`, the
    /// weights' mapping (their header only) and the vocabulary, one after the other. A first query
    /// that is seen coming (`prepare`) has this done on another thread while it starts.
    static func load(directory: URL, environment: [String: String]) -> Result<SentenceEncoder, ModelUnavailable> {
        let blas: OpenBLAS
        switch OpenBLAS.load(environment: environment) {
        case .failure(let reason): return .failure(reason)
        case .success(let library): blas = library
        }
        do throws(LoadError) {
            let weights = try mapWeights(directory)
            return .success(try SentenceEncoder(tokenizer: loadTokenizer(directory), weights: weights, blas: blas))
        } catch {
            return .failure(.unreadable(error.description))
        }
    }

    /// Takes the page faults of the encoder layers' 42 MB of weights now (one byte a page), on the
    /// calling thread: a query run next reads them without faulting.
    func touchLayerWeights() {
        weights.touchPages(ofTensorsNamed: "encoder.")
    }
}
