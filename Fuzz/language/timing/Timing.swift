import Foundation

// Times checking junk in a release build of BTSLanguage (a 64 KB junk script checked in
// < 50 ms). `scripts/fuzz --time-language`: junk of each kind, each step timed on its own, in the
// thread's CPU time (on a shared machine the wall clock counts the time other processes ran).
@main
enum Timing {
    static func main() {
        var state: UInt64 = 34
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let size = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 65_536 : 65_536
        let alphabet = Array("{}[]()\"'$|;&<>=#\\ \n\tif for end else while alias a 1 x -- ,.:".utf8)
        let kinds: [(String, [UInt8])] = [
            ("random bytes", (0..<size).map { _ in UInt8(truncatingIfNeeded: next()) }),
            ("shell punctuation", (0..<size).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }),
            (
                "one long line",
                { () -> [UInt8] in
                    let line = alphabet.filter { $0 != 0x0A && $0 != 0x23 }  // no line break, no comment
                    return (0..<size).map { _ in line[Int(next() % UInt64(line.count))] }
                }()
            ),
            ("unclosed quotes", Array(String(repeating: "\"a ", count: size / 3).utf8)),
            ("nested blocks", Array(String(repeating: "if x\n", count: size / 5).utf8)),
            ("plain commands", Array(String(repeating: "ab x\n", count: size / 5).utf8)),
        ]
        let only = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : nil
        func now() -> UInt64 {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }
        for (name, bytes) in kinds where only == nil || name.hasPrefix(only ?? "") {
            let text = String(decoding: bytes, as: UTF8.self)
            var best = (parse: Double.infinity, render: Double.infinity, lines: 0)
            for _ in 0..<5 {
                let start = now()
                let source = SourceFile(name: "junk", text: text)
                let result = Parser.parse(source)
                let parsed = now()
                let rendered = DiagnosticRenderer(colored: false).render(result.diagnostics, in: source)
                let end = now()
                best.parse = min(best.parse, Double(parsed - start) / 1e6)
                best.render = min(best.render, Double(end - parsed) / 1e6)
                best.lines = rendered.split(separator: "\n").count
            }
            print(
                String(
                    format: "%@ %6d bytes: parse %7.2f ms, render %7.2f ms (%d lines printed; CPU time)",
                    name as NSString,
                    bytes.count,
                    best.parse,
                    best.render,
                    best.lines
                )
            )
        }
    }
}
