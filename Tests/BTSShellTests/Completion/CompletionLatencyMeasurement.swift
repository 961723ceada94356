import BTSShell
import BTSTerminal
import BooksTrackSupport
import Foundation
import Testing

/// Prints keystroke-to-candidates latency with a full session cache (10,000 ISBNs and 10,000
/// titles). A measurement only: the figures depend on the machine and the build (debug here;
/// see the report for release figures). Checks only that the answers are right.
@Suite("Completion latency measurement", .onWorkThreads)
struct CompletionLatencyMeasurement {
    @Test("TAB with 10,000 ISBNs and titles in the cache")
    func latencyWithFullCache() {
        var context = CompletionContext()
        var rng = SplitMix64(seed: 3)
        let words = ["dune", "the", "left", "hand", "night", "café", "Günter", "river", "song", "star", "sea", "moon"]
        for n in 0..<10_000 {
            let stem = "978" + String(format: "%09d", (n * 7_919) % 1_000_000_000)
            let title = (0..<(2 + Int(rng.next() % 3))).map { _ in words[Int(rng.next() % UInt64(words.count))] }
                .joined(separator: " ")
            context.noteBook(isbn: makeISBN13(stem), title: "\(title) \(n)")
        }
        #expect(context.isbns.count == 10_000)
        #expect(context.titles.count == 10_000)
        let engine = CompletionEngine(context: context)
        let lines = [
            "similar 978", "similar 9780000", "search isbn 9780000079", "search title du", "search title the l",
            "search title cafe", "sea", "search title dune --li", "echo $", "set col",
        ]
        var samples: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<100 {
            for line in lines {
                let request = CompletionRequest(line: line, cursor: line.endIndex)
                var completion: CompletionProposal?
                let elapsed = clock.measure { completion = engine.completion(for: request) }
                #expect(completion != nil)
                samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
            }
        }
        samples.sort()
        let median = samples[samples.count / 2]
        let p99 = samples[samples.count * 99 / 100]
        print(
            "completion latency, 10,000 ISBNs + titles, \(samples.count) calls: median \(Int(median)) µs, p99 \(Int(p99)) µs"
        )
        #expect(engine.answer("search isbn 9780000079").candidates.allSatisfy { $0.hasPrefix("9780000079") })
    }
}
