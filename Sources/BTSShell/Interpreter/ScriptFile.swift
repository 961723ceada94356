import BTSLanguage
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a script — for `bts FILE`, `source FILE`, the rc file, `--vars FILE`, `bts test`, `bts check`
/// and `bts fmt` — in one way:
/// - a regular file (or a link to one), at most `maxBytes` (checking a script takes memory many times
///   its size);
/// - a path that names one of the process's descriptors (`/dev/stdin`, `/dev/fd/N` as `bts <(…)`
///   gives, `/proc/self/fd/N`): read as the stream it is, whatever it is (``FileDescriptorPath``);
/// - anything else — a FIFO, a device, a socket — is refused at once: it is looked at with `stat`
///   before it is opened, and opened with `O_NONBLOCK`, so a FIFO without a writer never blocks;
/// - the bytes must be UTF-8: the first that is not is refused with its line, column and offset
///   (nothing is replaced with U+FFFD, so `bts fmt` never writes back what it could not read);
/// - a leading UTF-8 byte-order mark is skipped (it counts in no line or column).
package enum ScriptFile {
    static let maxBytes = 1 << 20
    /// The UTF-8 byte-order mark (`bts fmt` writes it back before a file's text when it was there).
    package static let byteOrderMarkBytes: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Where the first byte that is not UTF-8 is.
    package struct Place: Sendable, Equatable {
        /// 1-based line.
        package var line: Int
        /// 1-based display column (as a diagnostic's; a byte-order mark counts in none).
        package var column: Int
        /// Offset of the byte in the file, from 0 (as `xxd` shows it; a byte-order mark counts here).
        package var offset: Int
        /// The byte itself.
        package var byte: UInt8
    }

    package enum Failure: Error, Equatable {
        case unreadable
        case directory
        /// A FIFO, a device or a socket (`kind` in words: "a FIFO").
        case notRegular(kind: String)
        case tooLarge
        case notUTF8(Place)

        /// Words for "cannot read 'FILE': …".
        package var reason: String {
            switch self {
            case .unreadable: return "no such file or not readable"
            case .directory: return "it is a directory"
            case .notRegular(let kind): return "it is \(kind), not a regular file"
            case .tooLarge: return "it is larger than \(ScriptFile.maxBytes >> 20) MB (scripts are at most that)"
            case .notUTF8(let place): return "not UTF-8 at line \(place.line), \(Self.byteWords(place))"
            }
        }

        /// Where in the file the failure is (a byte that is not UTF-8), if anywhere.
        package var place: Place? {
            if case .notUTF8(let place) = self { return place }
            return nil
        }

        /// The sentence without its place: "PREFIX 'PATH': REASON", or, for a byte that is not
        /// UTF-8, "not UTF-8 at byte OFFSET (0xNN); scripts are UTF-8 text".
        package func message(_ path: String, _ prefix: String = "cannot read") -> String {
            if let place { return "not UTF-8 at \(Self.byteWords(place)); scripts are UTF-8 text" }
            return "\(prefix) '\(path)': \(reason)"
        }

        /// The whole sentence for `path`: ``message(_:_:)``, after `PATH:LINE:COLUMN: ` when it has a place.
        package func sentence(_ path: String, _ prefix: String = "cannot read") -> String {
            guard let place else { return message(path, prefix) }
            return "\(path):\(place.line):\(place.column): " + message(path, prefix)
        }

        private static func byteWords(_ place: Place) -> String {
            let hex = String(place.byte, radix: 16, uppercase: true)
            return "byte \(place.offset) (0x\(hex.count < 2 ? "0" + hex : hex))"
        }
    }

    /// A script's text and whether a byte-order mark stood before it (`bts fmt` writes it back).
    package struct Contents: Sendable, Equatable {
        package var text: String
        package var byteOrderMark: Bool
    }

    /// The text of the script at `path` (without a byte-order mark).
    package static func read(_ path: String) throws(Failure) -> String {
        try load(path).text
    }

    /// The script at `path`: its text and whether it began with a byte-order mark.
    package static func load(_ path: String) throws(Failure) -> Contents {
        try decode(try bytes(at: path))
    }

    /// Standard input's script (`bts check -`, `bts fmt -`), whatever stdin is.
    package static func loadStandardInput() throws(Failure) -> Contents {
        try decode(try readAll(STDIN_FILENO))
    }

    /// Why `path` cannot be a script file, judged without opening it (nil: a regular file, a link
    /// to one, or a descriptor's path). For the walk of `bts test|check|fmt` and their arguments.
    static func refusal(of path: String) -> Failure? {
        if FileDescriptorPath.descriptor(of: path) != nil { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else { return .unreadable }
        return refusal(mode: status.st_mode)
    }

    private static func refusal(mode: mode_t) -> Failure? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return .directory
        default: return .notRegular(kind: FileKind.words(mode))
        }
    }

    /// The bytes at `path`, by the rules above.
    static func bytes(at path: String) throws(Failure) -> [UInt8] {
        if let descriptor = FileDescriptorPath.descriptor(of: path) {
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { throw .directory }
            return try readAll(descriptor)
        }
        if let refusal = refusal(of: path) { throw refusal }
        // O_NONBLOCK: if a FIFO took the file's place since the stat, the open does not wait for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable }
        if let refusal = refusal(mode: status.st_mode) { throw refusal }
        return try readAll(descriptor)
    }

    /// Every byte of `descriptor` up to its end, at most `maxBytes`.
    private static func readAll(_ descriptor: Int32) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EISDIR { throw .directory }
            guard count >= 0 else { throw .unreadable }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > maxBytes { throw .tooLarge }
        }
        return bytes
    }

    /// The text of `bytes`: a leading byte-order mark skipped, the rest UTF-8 or refused.
    static func decode(_ bytes: [UInt8]) throws(Failure) -> Contents {
        let mark = bytes.starts(with: byteOrderMarkBytes)
        let body = bytes[(mark ? byteOrderMarkBytes.count : 0)...]
        if let text = String(validating: body, as: UTF8.self) { return Contents(text: text, byteOrderMark: mark) }
        throw .notUTF8(place(ofInvalid: body))
    }

    /// Where the first byte of `body` that is not UTF-8 is (`body` is not all UTF-8): its line
    /// counted from `body`'s start, its column on that line, its offset the byte's index (a slice
    /// after a byte-order mark keeps the mark's bytes in its indices).
    static func place(ofInvalid body: ArraySlice<UInt8>) -> Place {
        let bad = UTF8Validation.firstInvalidOffset(body) ?? body.startIndex
        // The line's start, and the bytes before the bad one on it (valid UTF-8: the first bad one is later).
        let lineStart = body[..<bad].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? body.startIndex
        let line = body[..<bad].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let before = SourceFile(name: "", text: String(decoding: body[lineStart..<bad], as: UTF8.self))
        let column = before.location(of: before.bytes.count).column
        return Place(line: line, column: column, offset: bad, byte: body[bad])
    }
}

/// What a file is, in words, from its `st_mode`.
enum FileKind {
    static func words(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "a socket"
        }
    }
}

/// UTF-8 as RFC 3629 has it: no overlong forms, no surrogates, nothing past U+10FFFF.
enum UTF8Validation {
    /// The index of the first byte that does not start a valid sequence (nil: all valid).
    static func firstInvalidOffset(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            let second: ClosedRange<UInt8>
            switch lead {
            case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
            case 0xE0: (length, second) = (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
            case 0xED: (length, second) = (3, 0x80...0x9F)
            case 0xF0: (length, second) = (4, 0x90...0xBF)
            case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
            case 0xF4: (length, second) = (4, 0x80...0x8F)
            default: return index
            }
            guard end - index >= length, second.contains(bytes[index + 1]) else { return index }
            for next in (index + 2)..<(index + length) where bytes[next] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }
}
