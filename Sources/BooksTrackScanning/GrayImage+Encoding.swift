import CBarcode

/// Writes grayscale images as PNG or JPEG (for tests and generated sample photos).
extension GrayImage {
    /// The image as a PNG file's bytes (nil if libpng refused).
    package func pngData() -> [UInt8]? {
        var image = png_image()
        image.version = bts_png_image_version()
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_GRAY)
        var size = 0
        let sized = pixels.withUnsafeBytes {
            png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, Int32(width), nil)
        }
        guard sized != 0, size > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: size)
        let written = out.withUnsafeMutableBytes { target in
            pixels.withUnsafeBytes {
                png_image_write_to_memory(&image, target.baseAddress, &size, 0, $0.baseAddress, Int32(width), nil)
            }
        }
        png_image_free(&image)
        return written != 0 ? Array(out.prefix(size)) : nil
    }

    /// The image as a baseline JPEG at `quality` (1–100), or nil if TurboJPEG refused.
    package func jpegData(quality: Int = 85) -> [UInt8]? {
        guard let handle = tjInitCompress() else { return nil }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = pixels.withUnsafeBufferPointer {
            tjCompress2(
                handle,
                $0.baseAddress,
                Int32(width),
                0,
                Int32(height),
                Int32(TJPF_GRAY.rawValue),
                &buffer,
                &size,
                Int32(TJSAMP_GRAY.rawValue),
                Int32(max(1, min(100, quality))),
                0
            )
        }
        guard result == 0, let buffer else { return nil }
        defer { tjFree(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}

extension GrayImage {
    /// The image as a lossless WebP file's bytes, or nil if libwebp refused.
    package func webpData() -> [UInt8]? {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for (i, value) in pixels.enumerated() {
            rgb[i * 3] = value
            rgb[i * 3 + 1] = value
            rgb[i * 3 + 2] = value
        }
        var output: UnsafeMutablePointer<UInt8>?
        let size = rgb.withUnsafeBufferPointer {
            WebPEncodeLosslessRGB($0.baseAddress, Int32(width), Int32(height), Int32(width * 3), &output)
        }
        guard size > 0, let output else { return nil }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
