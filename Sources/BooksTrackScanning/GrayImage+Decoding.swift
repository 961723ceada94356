import BooksTrackContract
import CBarcode

/// Why a photo could not be read: each said in one plain sentence (no library text).
package enum PhotoDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not JPEG, PNG or WebP (by its first bytes).
    case notAnImage
    /// The header or data is damaged or cut short.
    case damaged(PhotoFormat)
    /// Wider or taller than the reader takes.
    case tooLarge(width: Int, height: Int)

    package var description: String {
        switch self {
        case .notAnImage: return "it is not a JPEG, PNG or WebP image"
        case .damaged(let format): return "the \(format.rawValue.uppercased()) data is damaged or cut short"
        case .tooLarge(let w, let h):
            return "it is \(w) × \(h) pixels; the reader takes at most \(GrayImage.maxPixels / 1_000_000) megapixels"
        }
    }
}

extension GrayImage {
    /// The largest image decoded (a 10 MB file can claim any size in its header).
    package static let maxPixels = 64_000_000
    /// The longest side decoded.
    package static let maxSide = 20_000

    /// Decodes a JPEG, PNG or WebP photo (told by its first bytes) to grayscale.
    package init(decoding data: [UInt8]) throws(PhotoDecodingError) {
        guard let format = PhotoFormat(sniffing: data) else { throw .notAnImage }
        switch format {
        case .png: self = try Self.decodePNG(data)
        case .jpeg: self = try Self.decodeJPEG(data)
        case .webp: self = try Self.decodeWebP(data)
        }
    }

    static func checkSize(_ width: Int, _ height: Int, _ format: PhotoFormat) throws(PhotoDecodingError) {
        guard width > 0, height > 0 else { throw .damaged(format) }
        guard width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw .tooLarge(width: width, height: height)
        }
    }

    static func decodePNG(_ data: [UInt8]) throws(PhotoDecodingError) -> GrayImage {
        var image = png_image()
        image.version = bts_png_image_version()
        let begun = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw .damaged(.png) }
        let width = Int(image.width)
        let height = Int(image.height)
        do throws(PhotoDecodingError) {
            try checkSize(width, height, .png)
        } catch {
            png_image_free(&image)
            throw error
        }
        image.format = UInt32(PNG_FORMAT_GRAY)
        var pixels = [UInt8](repeating: 255, count: width * height)
        let finished = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, Int32(width), nil)
        }
        png_image_free(&image)
        guard finished != 0 else { throw .damaged(.png) }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    static func decodeJPEG(_ data: [UInt8]) throws(PhotoDecodingError) -> GrayImage {
        guard let handle = tjInitDecompress() else { throw .damaged(.jpeg) }
        defer { tjDestroy(handle) }
        var w: Int32 = 0
        var h: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let header = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &w, &h, &subsampling, &colorspace)
        }
        guard header == 0 else { throw .damaged(.jpeg) }
        let width = Int(w)
        let height = Int(h)
        try checkSize(width, height, .jpeg)
        var pixels = [UInt8](repeating: 255, count: width * height)
        let result = data.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                tjDecompress2(
                    handle,
                    source.baseAddress,
                    UInt(source.count),
                    target.baseAddress,
                    w,
                    0,
                    h,
                    Int32(TJPF_GRAY.rawValue),
                    0
                )
            }
        }
        // A cut-short file decodes with a warning (the missing rows stay white); only a fatal error fails.
        if result != 0, tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) { throw .damaged(.jpeg) }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    static func decodeWebP(_ data: [UInt8]) throws(PhotoDecodingError) -> GrayImage {
        var w: Int32 = 0
        var h: Int32 = 0
        let known = data.withUnsafeBufferPointer { WebPGetInfo($0.baseAddress, $0.count, &w, &h) }
        guard known != 0 else { throw .damaged(.webp) }
        let width = Int(w)
        let height = Int(h)
        try checkSize(width, height, .webp)
        guard let rgba = data.withUnsafeBufferPointer({ WebPDecodeRGBA($0.baseAddress, $0.count, &w, &h) }) else {
            throw .damaged(.webp)
        }
        defer { WebPFree(rgba) }
        var pixels = [UInt8](repeating: 255, count: width * height)
        for i in 0..<(width * height) {
            let r = Int(rgba[i * 4])
            let g = Int(rgba[i * 4 + 1])
            let b = Int(rgba[i * 4 + 2])
            let a = Int(rgba[i * 4 + 3])
            // Transparent pixels read as white paper; ITU-R BT.601 luma.
            let luma = (299 * r + 587 * g + 114 * b) / 1000
            pixels[i] = UInt8((luma * a + 255 * (255 - a)) / 255)
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }
}
