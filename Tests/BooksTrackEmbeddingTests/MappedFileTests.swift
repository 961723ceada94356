import BooksTrackEmbedding
import Foundation
import TestSupport
import Testing

/// `MappedFile`: the bytes in place, and the huge-page advice on the mapping the model's weights use.
@Suite(.onWorkThreads) struct MappedFileTests {
    /// A temporary file of `size` bytes (byte i is i % 251), removed by the caller.
    static func file(size: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString).bin")
        let bytes: [UInt8] = (0..<size).map { UInt8($0 % 251) }
        try Data(bytes).write(to: url)
        return url
    }

    /// The `VmFlags` of the mapping that starts at `base`, from /proc/self/smaps.
    static func flags(ofMappingAt base: UnsafeRawPointer) throws -> [Substring] {
        // Read to the end (a /proc file's size is 0, which a whole-file read takes at its word).
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try #require(try handle.readToEnd()), as: UTF8.self)
        let start = String(UInt(bitPattern: base), radix: 16)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), line[..<dash].allSatisfy(\.isHexDigit) {
                inMapping = line[..<dash].drop(while: { $0 == "0" }) == start[...]
            } else if inMapping, line.hasPrefix("VmFlags:") {
                return line.dropFirst("VmFlags:".count).split(separator: " ")
            }
        }
        throw CocoaError(.fileReadUnknown)
    }

    @Test func mapsTheFilesBytes() throws {
        let size = 3 * 4096 + 17
        let url = try Self.file(size: size)
        defer { try? FileManager.default.removeItem(at: url) }
        let mapped = try #require(MappedFile(path: url.path))
        let expected: [UInt8] = (0..<size).map { UInt8($0 % 251) }
        #expect(mapped.bytes.count == size)
        #expect(Array(mapped.bytes) == expected)
        #expect(MappedFile(path: url.path + ".missing") == nil)
    }

    /// Whether this kernel has transparent huge pages at all (else `MADV_HUGEPAGE` is refused and
    /// no mapping carries the flag; bts goes on without it).
    static let kernelHasHugePages = FileManager.default.fileExists(
        atPath: "/sys/kernel/mm/transparent_hugepage/enabled"
    )

    /// The weights' mapping carries the kernel's huge-page flag (`hg`); a plain mapping does not.
    @Test(.enabled(if: kernelHasHugePages, "a kernel without transparent huge pages"))
    func theWeightsMappingAsksForHugePages() throws {
        let url = try Self.file(size: 4 << 20)
        defer { try? FileManager.default.removeItem(at: url) }
        let huge = try #require(MappedFile(path: url.path, hugePages: true))
        let plain = try #require(MappedFile(path: url.path))
        #expect(try Self.flags(ofMappingAt: try #require(huge.bytes.baseAddress)).contains("hg"))
        #expect(try !Self.flags(ofMappingAt: try #require(plain.bytes.baseAddress)).contains("hg"))
    }

    /// The model's weights are mapped with the advice (`SafeTensors` asks for it).
    @Test(.enabled(if: kernelHasHugePages, "a kernel without transparent huge pages"))
    func theModelsWeightsAreMappedWithTheAdvice() throws {
        let directory = try #require(ModelLocation.installed())
        let weights = try SafeTensors(contentsOf: directory.appendingPathComponent("model.safetensors"))
        #expect(try Self.flags(ofMappingAt: try #require(weights.file.bytes.baseAddress)).contains("hg"))
    }
}
