/// An 8-bit grayscale image, row-major, no padding: what the barcode reader scans.
package struct GrayImage: Sendable, Hashable {
    package let width: Int
    package let height: Int
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "pixels must be width × height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A blank (white) image.
    package init(width: Int, height: Int, fill: UInt8 = 255) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height))
    }

    /// The pixel at (x, y), or `outside` beyond the edges.
    @inlinable
    package func pixel(_ x: Int, _ y: Int, outside: UInt8 = 255) -> UInt8 {
        guard x >= 0, y >= 0, x < width, y < height else { return outside }
        return pixels[y * width + x]
    }

    /// The image turned by `degrees` (counter-clockwise) about its centre, on a canvas big enough to
    /// hold all of it (new corners white), sampled bilinearly. `map` turns a point of the result back
    /// into this image's coordinates.
    package func rotated(by degrees: Double) -> (image: GrayImage, map: @Sendable (Double, Double) -> (Double, Double))
    {
        let radians = degrees * .pi / 180
        let c = cos(radians)
        let s = sin(radians)
        let w = Double(width)
        let h = Double(height)
        let newW = Int((abs(w * c) + abs(h * s)).rounded(.up))
        let newH = Int((abs(w * s) + abs(h * c)).rounded(.up))
        let (cx, cy) = (w / 2, h / 2)
        let (ncx, ncy) = (Double(newW) / 2, Double(newH) / 2)
        let map: @Sendable (Double, Double) -> (Double, Double) = { x, y in
            let dx = x - ncx
            let dy = y - ncy
            return (cx + dx * c - dy * s, cy + dx * s + dy * c)
        }
        var out = [UInt8](repeating: 255, count: newW * newH)
        for y in 0..<newH {
            for x in 0..<newW {
                let (sx, sy) = map(Double(x) + 0.5, Double(y) + 0.5)
                let fx = sx - 0.5
                let fy = sy - 0.5
                let x0 = Int(fx.rounded(.down))
                let y0 = Int(fy.rounded(.down))
                let ax = fx - Double(x0)
                let ay = fy - Double(y0)
                let p00 = Double(pixel(x0, y0))
                let p10 = Double(pixel(x0 + 1, y0))
                let p01 = Double(pixel(x0, y0 + 1))
                let p11 = Double(pixel(x0 + 1, y0 + 1))
                let top = p00 + (p10 - p00) * ax
                let bottom = p01 + (p11 - p01) * ax
                out[y * newW + x] = UInt8(max(0, min(255, (top + (bottom - top) * ay).rounded())))
            }
        }
        return (GrayImage(width: newW, height: newH, pixels: out), map)
    }
}

#if canImport(Glibc)
import Glibc
#endif
