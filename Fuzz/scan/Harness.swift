// Fuzz target: the offline scan's image path (BooksTrackScanning through libpng, TurboJPEG and
// libwebp in CBarcode): any bytes decode to a grayscale image within the size limits or to one
// PhotoDecodingError, never a crash; a decoded image survives a PNG round trip unchanged; small
// images are also read for barcodes (ZBar), as `bts scan --local` does.
func fuzzOne(_ bytes: [UInt8]) {
    let image: GrayImage
    do {
        image = try GrayImage(decoding: bytes)
    } catch {
        invariant(!error.description.isEmpty, "an empty decoding error")
        if case .tooLarge(let w, let h) = error {
            invariant(
                w > GrayImage.maxSide || h > GrayImage.maxSide || w * h > GrayImage.maxPixels,
                "\(w)×\(h) refused as too large"
            )
        }
        return
    }
    invariant(image.width > 0 && image.height > 0, "a \(image.width)×\(image.height) image")
    invariant(image.width <= GrayImage.maxSide && image.height <= GrayImage.maxSide, "a side past the limit")
    invariant(
        image.pixels.count == image.width * image.height,
        "\(image.pixels.count) pixels for \(image.width)×\(image.height)"
    )
    guard image.width * image.height <= 65_536 else { return }
    if let png = image.pngData() {
        let again = try? GrayImage(decoding: png)
        invariant(again == image, "a PNG round trip changed the image")
    }
    for found in BarcodeReader.read(image) {
        invariant(
            found.isbn.utf8.count == 13 && found.isbn.utf8.allSatisfy { (0x30...0x39).contains($0) },
            "read '\(found.isbn)' as an ISBN"
        )
        invariant((0...1).contains(found.confidence), "confidence \(found.confidence)")
    }
}
