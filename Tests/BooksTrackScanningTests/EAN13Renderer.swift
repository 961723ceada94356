import BooksTrackScanning

/// Draws EAN-13 barcodes (GS1 General Specifications §5.2.1: guards, L/G/R digit sets, the first
/// digit as the parity pattern of the left half) into gray images, for photos the tests make.
enum EAN13Renderer {
    static let l = [
        "0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011",
    ]
    static let g = [
        "0100111", "0110011", "0011011", "0100001", "0011101", "0111001", "0000101", "0010001", "0001001", "0010111",
    ]
    static let r = [
        "1110010", "1100110", "1101100", "1000010", "1011100", "1001110", "1010000", "1000100", "1001000", "1110100",
    ]
    static let parity = [
        "LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL",
    ]

    /// The 95 modules of `code` (13 digits), 1 = bar.
    static func modules(_ code: String) -> [Bool] {
        let digits = code.compactMap { $0.wholeNumberValue }
        precondition(digits.count == 13)
        var bits = "101"
        let pattern = Array(parity[digits[0]])
        for i in 1...6 { bits += pattern[i - 1] == "L" ? l[digits[i]] : g[digits[i]] }
        bits += "01010"
        for i in 7...12 { bits += r[digits[i]] }
        bits += "101"
        return bits.map { $0 == "1" }
    }

    /// A barcode image: `module` pixels a module, `height` pixels tall, a quiet zone of 12 modules.
    static func render(_ code: String, module: Int = 3, height: Int = 120) -> GrayImage {
        let bits = modules(code)
        let quiet = 12 * module
        let width = bits.count * module + 2 * quiet
        var image = GrayImage(width: width, height: height + 2 * module * 4)
        for (i, bar) in bits.enumerated() where bar {
            for x in (quiet + i * module)..<(quiet + (i + 1) * module) {
                for y in (module * 4)..<(module * 4 + height) { image.pixels[y * width + x] = 20 }
            }
        }
        return image
    }

    /// Draws `stamp` onto `canvas` at (x, y), keeping the darker pixel.
    static func paste(_ stamp: GrayImage, onto canvas: inout GrayImage, x: Int, y: Int) {
        for sy in 0..<stamp.height {
            for sx in 0..<stamp.width {
                let cx = x + sx
                let cy = y + sy
                guard cx >= 0, cy >= 0, cx < canvas.width, cy < canvas.height else { continue }
                let i = cy * canvas.width + cx
                canvas.pixels[i] = min(canvas.pixels[i], stamp.pixels[sy * stamp.width + sx])
            }
        }
    }

    /// Adds uniform noise of ±`amount` (a fixed seed: the same photo every run).
    static func addNoise(_ image: inout GrayImage, amount: Int, seed: UInt64) {
        var state = seed
        for i in image.pixels.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Int((state >> 33) % UInt64(2 * amount + 1)) - amount
            image.pixels[i] = UInt8(max(0, min(255, Int(image.pixels[i]) + noise)))
        }
    }
}
