#if FUZZ_LOOP
import Foundation

/// The deterministic fuzz loop: `TARGET CORPUS_DIR RUNS [SEED]`. Mutations: bit flips, byte
/// insertions and deletions, chunk duplication, splicing two seeds, interesting bytes.
@main
enum FuzzLoop {
    static func main() {
        let arguments = CommandLine.arguments
        let directory = arguments.count > 1 ? arguments[1] : "."
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000
        var state: UInt64 = arguments.count > 3 ? UInt64(arguments[3]) ?? 1 : 1
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.sorted() ?? []
        var seeds = names.compactMap { FileManager.default.contents(atPath: directory + "/" + $0).map { Array($0) } }
        if seeds.isEmpty { seeds = [[]] }
        let interesting: [UInt8] = [
            0, 0x0A, 0x0D, 0x22, 0x2C, 0x3A, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x1B, 0x7F, 0x80, 0xC3, 0xE2, 0xEF, 0xFF,
        ]
        let start = Date()
        for run in 0..<runs {
            var input = seeds[Int(next() % UInt64(seeds.count))]
            let mutations = 1 + Int(next() % 8)
            for _ in 0..<mutations {
                switch next() % 7 {
                case 0 where !input.isEmpty:
                    let index = Int(next() % UInt64(input.count))
                    input[index] ^= UInt8(1 << (next() % 8))
                case 1:
                    let index = input.isEmpty ? 0 : Int(next() % UInt64(input.count + 1))
                    input.insert(interesting[Int(next() % UInt64(interesting.count))], at: index)
                case 2 where !input.isEmpty:
                    input.remove(at: Int(next() % UInt64(input.count)))
                case 3 where !input.isEmpty:
                    let from = Int(next() % UInt64(input.count))
                    let length = min(input.count - from, 1 + Int(next() % 64))
                    let at = Int(next() % UInt64(input.count + 1))
                    input.insert(contentsOf: input[from..<(from + length)], at: at)
                case 4:
                    let other = seeds[Int(next() % UInt64(seeds.count))]
                    let cut = input.isEmpty ? 0 : Int(next() % UInt64(input.count + 1))
                    let otherCut = other.isEmpty ? 0 : Int(next() % UInt64(other.count + 1))
                    input = Array(input[..<cut]) + Array(other[otherCut...])
                case 5 where !input.isEmpty:
                    let index = Int(next() % UInt64(input.count))
                    input[index] = UInt8(truncatingIfNeeded: next())
                default:
                    input.append(UInt8(truncatingIfNeeded: next()))
                }
            }
            if input.count > 65_536 { input.removeLast(input.count - 65_536) }
            input.withUnsafeBufferPointer { _ = fuzzerTestOneInput($0.baseAddress, $0.count) }
            if run > 0, run % 1_000_000 == 0 {
                FileHandle.standardError.write(Data("#\(run) \(Int(Date().timeIntervalSince(start))) s\n".utf8))
            }
        }
        let seconds = Date().timeIntervalSince(start)
        print("DONE \(runs) runs in \(Int(seconds)) s (\(Int(Double(runs) / max(seconds, 0.001))) exec/s), no crash")
    }
}
#endif
