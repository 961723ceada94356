import Foundation

/// Refuses a file that is not UTF-8 text before it is uploaded, so that `import /bin/ls` starts no
/// server job. Streams the file in 64 KB chunks: it is never read whole.
package enum TextFileCheck {
    /// What is wrong with the file's bytes.
    package enum Problem: Error, Sendable, Equatable {
        /// A control byte other than TAB, LF, CR (a NUL, an escape…) at this offset: binary data.
        case controlByte(offset: Int)
        /// Bytes that are not UTF-8 at this offset.
        case notUTF8(offset: Int)

        /// The sentence for the user.
        package var message: String {
            switch self {
            case .controlByte(let offset): return "it is not a text file (a control byte at offset \(offset))"
            case .notUTF8(let offset):
                return "it is not UTF-8 text (invalid byte at offset \(offset)); save it as UTF-8"
            }
        }
    }

    /// The first problem in the file, or nil when it is UTF-8 text (an unreadable file is left to
    /// the caller's own checks).
    package static func problem(inFileAt url: URL) -> Problem? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        var scanner = Scanner()
        while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty {
            if let problem = scanner.feed(chunk) { return problem }
        }
        return scanner.finish()
    }

    /// The first problem in `bytes` taken as a whole file.
    package static func problem(in bytes: some Sequence<UInt8>) -> Problem? {
        var scanner = Scanner()
        return scanner.feed(bytes) ?? scanner.finish()
    }

    /// An incremental UTF-8 validator that also rejects control bytes (a pure state machine).
    package struct Scanner: Sendable {
        var offset = 0
        /// Continuation bytes still expected, and the allowed range of the next one.
        var pending = 0
        var nextLow: UInt8 = 0x80
        var nextHigh: UInt8 = 0xBF
        var sequenceStart = 0

        package init() {}

        package mutating func feed(_ bytes: some Sequence<UInt8>) -> Problem? {
            for byte in bytes {
                defer { offset += 1 }
                if pending > 0 {
                    guard byte >= nextLow, byte <= nextHigh else { return .notUTF8(offset: sequenceStart) }
                    pending -= 1
                    nextLow = 0x80
                    nextHigh = 0xBF
                    continue
                }
                sequenceStart = offset
                switch byte {
                case 0x09, 0x0A, 0x0D: continue
                case 0x00...0x1F, 0x7F: return .controlByte(offset: offset)
                case 0x20...0x7E: continue
                case 0xC2...0xDF: pending = 1
                case 0xE0:
                    pending = 2
                    nextLow = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: pending = 2
                case 0xED:
                    pending = 2
                    nextHigh = 0x9F
                case 0xF0:
                    pending = 3
                    nextLow = 0x90
                case 0xF1...0xF3: pending = 3
                case 0xF4:
                    pending = 3
                    nextHigh = 0x8F
                default: return .notUTF8(offset: offset)
                }
            }
            return nil
        }

        /// The end of the file: a sequence cut short is a problem.
        package func finish() -> Problem? {
            pending > 0 ? .notUTF8(offset: sequenceStart) : nil
        }
    }
}
