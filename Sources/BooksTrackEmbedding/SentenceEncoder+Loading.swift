import Dispatch
import Foundation
import Synchronization

/// Work started on a thread of its own and waited for: a first query's fixed costs run side by
/// side. Not on Dispatch's global queues: their pool is as wide as the machine, so on two cores a
/// worker waiting here for another queued item waited until libdispatch's monitor added a thread,
/// about a second later.
final class Background<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)
    private let work: @Sendable () -> Value

    init(_ work: @escaping @Sendable () -> Value) {
        self.work = work
        Thread.detachNewThread { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
    }

    /// The value, once the work has finished.
    func wait() -> Value {
        done.wait()
        return result.withLock { $0 } ?? work()
    }
}

extension SafeTensors {
    /// Reads one byte of every page of the tensors named `prefix…` (one range from the first to the
    /// last): the page faults of their first use, taken ahead of it. Returns a checksum so the
    /// reads are not optimised away.
    @discardableResult
    func touchPages(ofTensorsNamed prefix: String) -> UInt8 {
        let ranges = tensors.filter { $0.key.hasPrefix(prefix) }
            .map { (start: $0.value.offset, end: $0.value.offset + 4 * $0.value.shape.reduce(1, *)) }
        guard let base = file.bytes.baseAddress, let low = ranges.map(\.start).min(), let high = ranges.map(\.end).max() else {
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
    /// Loads the encoder from `directory` with OpenBLAS from `environment`, side by side: OpenBLAS's
    /// `dlopen` (about 2 ms: 16,000 relocations) and the first touch of the encoder layers' 42 MB of
    /// weights (page faults, about 3 ms) run on other threads while this one reads the vocabulary.
    /// The CPU time is the same (perf); the aim is less wall time where a second core is free, which
    /// the loaded machine it was measured on could not show (docs/meaning.md).
    static func load(directory: URL, environment: [String: String]) -> Result<SentenceEncoder, ModelUnavailable> {
        let blas = Background { OpenBLAS.load(environment: environment) }
        let weights: SafeTensors
        let tokenizer: WordPieceTokenizer
        do throws(LoadError) {
            weights = try mapWeights(directory)
            let mapped = weights
            _ = Background { mapped.touchPages(ofTensorsNamed: "encoder.") }  // the queued work keeps the mapping
            tokenizer = try loadTokenizer(directory)
        } catch {
            _ = blas.wait()
            return .failure(.unreadable(error.description))
        }
        switch blas.wait() {
        case .failure(let reason):
            return .failure(reason)
        case .success(let library):
            do throws(LoadError) {
                return .success(try SentenceEncoder(tokenizer: tokenizer, weights: weights, blas: library))
            } catch {
                return .failure(.unreadable(error.description))
            }
        }
    }
}
