import BooksTrackContract
import CBarcode

/// One ISBN barcode found in a photo.
package struct FoundBarcode: Sendable, Hashable {
    /// The ISBN-13 it encodes (EAN-13 with the 978/979 Bookland prefix).
    package var isbn: String
    /// How many scan lines read it (ZBar's quality): more means a clearer read.
    package var quality: Int
    /// Where it is, normalized to 0…1 of the photo's width and height.
    package var box: Box

    package struct Box: Sendable, Hashable {
        package var x: Double, y: Double, width: Double, height: Double
    }

    /// A confidence in 0…1 from the read's quality: a check-digit-valid EAN-13 read on one line is
    /// 0.7, each further line adds 0.04, up to 0.99 (so four or more lines are approved at 0.8).
    package var confidence: Double { min(0.99, 0.7 + 0.04 * Double(max(0, quality - 1))) }
}

/// Finds the ISBN barcodes (EAN-13, 978/979) in a photo with ZBar: the photo as it is, then turned
/// by 45° (ZBar reads along rows and columns, so a barcode turned 20°–70° needs the turned copy);
/// several barcodes per photo, each ISBN once.
package enum BarcodeReader {
    /// The barcodes in a decoded photo.
    package static func read(_ image: GrayImage) -> [FoundBarcode] {
        var found: [String: FoundBarcode] = [:]
        for symbol in scan(image) { merge(symbol, into: &found, width: image.width, height: image.height, map: nil) }
        if turnsAt45(width: image.width, height: image.height) {
            let (turned, map) = image.rotated(by: 45)
            for symbol in scan(turned) {
                merge(symbol, into: &found, width: image.width, height: image.height, map: map)
            }
        }
        return found.values.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }
    }

    /// Whether the photo is also read turned 45°: only while the turned canvas, `(w + h)² / 2` pixels,
    /// stays within `GrayImage.maxPixels` and within 4 times the photo (a 4:3 or 16:9 photo makes about
    /// twice its size). A thin strip (a tiny JPEG thousands of pixels wide and one high, found by
    /// Fuzz/scan) would make a canvas far larger than itself; it is read upright and sideways only.
    static func turnsAt45(width: Int, height: Int) -> Bool {
        let side = Double(width + height) / 2.0.squareRoot()
        let canvas = side.rounded(.up) * side.rounded(.up)
        return canvas <= Double(GrayImage.maxPixels) && canvas <= 4 * Double(width) * Double(height)
    }

    /// The barcodes in a photo's bytes (JPEG, PNG or WebP).
    package static func read(photo bytes: [UInt8]) throws(PhotoDecodingError) -> [FoundBarcode] {
        read(try GrayImage(decoding: bytes))
    }

    struct Symbol {
        var data: String
        var quality: Int
        var points: [(Double, Double)]
    }

    static func scan(_ image: GrayImage) -> [Symbol] {
        guard image.width > 0, image.height > 0, let scanner = zbar_image_scanner_create() else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        // Only EAN-13 (ISBNs are EAN-13 with a 978/979 prefix); every other symbology off.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_EAN13, ZBAR_CFG_ENABLE, 1)
        guard let zimage = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(zimage) }
        zbar_image_set_format(zimage, bts_zbar_format_y800())
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        var symbols: [Symbol] = []
        image.pixels.withUnsafeBytes { raw in
            // No cleanup handler: the pixels outlive the scan (the image is destroyed first, above).
            zbar_image_set_data(zimage, raw.baseAddress, UInt(raw.count), nil)
            guard zbar_scan_image(scanner, zimage) > 0 else { return }
            var symbol = zbar_image_first_symbol(zimage)
            while let current = symbol {
                if let text = zbar_symbol_get_data(current) {
                    var points: [(Double, Double)] = []
                    for i in 0..<zbar_symbol_get_loc_size(current) {
                        points.append(
                            (Double(zbar_symbol_get_loc_x(current, i)), Double(zbar_symbol_get_loc_y(current, i)))
                        )
                    }
                    symbols.append(
                        Symbol(
                            data: String(cString: text),
                            quality: Int(zbar_symbol_get_quality(current)),
                            points: points
                        )
                    )
                }
                symbol = zbar_symbol_next(current)
            }
            // Detach the pixels before the buffer goes away.
            zbar_image_set_data(zimage, nil, 0, nil)
        }
        return symbols
    }

    static func merge(
        _ symbol: Symbol,
        into found: inout [String: FoundBarcode],
        width: Int,
        height: Int,
        map: (@Sendable (Double, Double) -> (Double, Double))?
    ) {
        let digits = symbol.data
        guard digits.utf8.count == 13, digits.hasPrefix("978") || digits.hasPrefix("979"),
            let isbn = ISBN(digits), isbn.value == digits
        else { return }
        let points = symbol.points.map { map?($0.0, $0.1) ?? $0 }
        let xs = points.map(\.0)
        let ys = points.map(\.1)
        let w = Double(max(1, width))
        let h = Double(max(1, height))
        let minX = max(0, (xs.min() ?? 0) / w)
        let maxX = min(1, (xs.max() ?? 0) / w)
        let minY = max(0, (ys.min() ?? 0) / h)
        let maxY = min(1, (ys.max() ?? 0) / h)
        let box = FoundBarcode.Box(x: minX, y: minY, width: max(0, maxX - minX), height: max(0, maxY - minY))
        let candidate = FoundBarcode(isbn: digits, quality: symbol.quality, box: box)
        if let existing = found[digits], existing.quality >= candidate.quality { return }
        found[digits] = candidate
    }
}
