import Foundation

// Writes the scan target's generated seeds to the directory given: a small photo-like image (a
// gradient with two dark bars) encoded by the same libraries as PNG, JPEG (two qualities) and WebP,
// each also cut after its header and at half its length. Built by scripts/fuzz with the scan sources.
@main
enum MakeSeeds {
    static func main() {
        let directory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "."
        var image = GrayImage(width: 48, height: 24)
        for y in 0..<24 {
            for x in 0..<48 { image.pixels[y * 48 + x] = UInt8(255 - x * 5) }
            for x in [10, 11, 12, 20, 21] { image.pixels[y * 48 + x] = 0 }
        }
        let encoded: [(String, [UInt8]?)] = [
            ("gray.png", image.pngData()), ("q85.jpg", image.jpegData()), ("q20.jpg", image.jpegData(quality: 20)),
            ("image.webp", image.webpData()),
        ]
        for (name, bytes) in encoded {
            guard let bytes else { continue }
            for (prefix, count) in [("", bytes.count), ("half-", bytes.count / 2), ("header-", min(bytes.count, 40))] {
                _ = FileManager.default.createFile(
                    atPath: "\(directory)/\(prefix)\(name)",
                    contents: Data(bytes.prefix(count))
                )
            }
        }
    }
}
