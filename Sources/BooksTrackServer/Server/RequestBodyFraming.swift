import Foundation

/// How a request's body is delimited, read from its (accepted) head: none, `Content-Length`,
/// chunked, or an `Upgrade` after which the connection no longer carries HTTP/1 requests.
enum RequestBodyFraming: Equatable, Sendable {
    case none
    case length(Int)
    case chunked
    case upgrade

    /// The framing of a complete, accepted head (`RequestHeadVerdict.judge` said `.accept`).
    init(head: [UInt8]) {
        var framing = RequestBodyFraming.none
        for line in RequestHeadVerdict.split(head).dropFirst() {
            guard let colon = line.firstIndex(of: 0x3A) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self)
                .trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            switch name {
            case "upgrade":
                self = .upgrade
                return
            case "transfer-encoding": framing = .chunked
            case "content-length" where framing != .chunked:
                let length = Int(value) ?? 0
                framing = length > 0 ? .length(length) : .none
            default: break
            }
        }
        self = framing
    }
}

/// Follows a request body's bytes to its end (a `Content-Length` counted down, or chunked framing
/// up to the blank line after the last chunk's trailers), so that the guard knows when the body is
/// whole and where the next request starts. Malformed chunked framing ends the tracking: the HTTP
/// decoder refuses it and closes.
struct RequestBodyTracker: Sendable {
    private enum State: Sendable {
        case length(remaining: Int)
        case chunkSize(value: Int, digits: Int, inExtension: Bool)
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailer(lineLength: Int)
        case done
    }

    private var state: State

    init?(_ framing: RequestBodyFraming) {
        switch framing {
        case .length(let count): state = .length(remaining: count)
        case .chunked: state = .chunkSize(value: 0, digits: 0, inExtension: false)
        case .none, .upgrade: return nil
        }
    }

    var isDone: Bool {
        if case .done = state { return true }
        return false
    }

    /// Reads `bytes`: how many of them belong to the body once it is whole (the rest is the next
    /// request), nil while it needs more.
    mutating func feed(_ bytes: some Collection<UInt8>) -> Int? {
        var used = 0
        var index = bytes.startIndex
        while index != bytes.endIndex {
            switch state {
            case .done:
                return used
            case .length(let remaining):
                let take = min(remaining, bytes.distance(from: index, to: bytes.endIndex))
                index = bytes.index(index, offsetBy: take)
                used += take
                state = remaining - take == 0 ? .done : .length(remaining: remaining - take)
                continue
            case .chunkData(let remaining):
                let take = min(remaining, bytes.distance(from: index, to: bytes.endIndex))
                index = bytes.index(index, offsetBy: take)
                used += take
                state = remaining - take == 0 ? .chunkDataEnd : .chunkData(remaining: remaining - take)
                continue
            case .chunkSize(let value, let digits, let inExtension):
                let byte = bytes[index]
                if byte == 0x0A {
                    state = digits == 0 ? .done : value == 0 ? .trailer(lineLength: 0) : .chunkData(remaining: value)
                } else if inExtension || byte == 0x0D {
                    break
                } else if byte == 0x3B {
                    state = .chunkSize(value: value, digits: digits, inExtension: true)
                } else if let digit = Self.hexValue(byte), digits < 15 {
                    state = .chunkSize(value: value * 16 + digit, digits: digits + 1, inExtension: false)
                } else {
                    state = .done
                }
            case .chunkDataEnd:
                let byte = bytes[index]
                if byte == 0x0A {
                    state = .chunkSize(value: 0, digits: 0, inExtension: false)
                } else if byte != 0x0D {
                    state = .done
                }
            case .trailer(let lineLength):
                let byte = bytes[index]
                if byte == 0x0A {
                    state = lineLength == 0 ? .done : .trailer(lineLength: 0)
                } else if byte != 0x0D {
                    state = .trailer(lineLength: lineLength + 1)
                }
            }
            index = bytes.index(after: index)
            used += 1
        }
        return isDone ? used : nil
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        default: return nil
        }
    }
}
