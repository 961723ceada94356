import BooksTrackContract
import Foundation
import TestSupport
import Testing

@testable import BooksTrackScanning

/// Photos made here: EAN-13 ISBN barcodes rendered at several sizes and angles, with noise, saved
/// as PNG and JPEG, read back through the decoders and ZBar.
@Suite(.onWorkThreads) struct BarcodeReaderTests {
    static let isbns = ["9780439023481", "9780441172719", "9780061120084", "9781451673319", "9798886450132"]

    /// A photo of `codes`, each turned by its angle, on a noisy page.
    static func photo(
        _ codes: [(String, Double, Int)],
        width: Int = 1400,
        height: Int = 1000,
        noise: Int = 12
    ) -> GrayImage {
        var canvas = GrayImage(width: width, height: height, fill: 235)
        var x = 40
        var y = 40
        for (code, angle, module) in codes {
            var stamp = EAN13Renderer.render(code, module: module, height: 40 * module)
            if angle != 0 { stamp = stamp.rotated(by: angle).image }
            if x + stamp.width > width {
                x = 40
                y += 380
            }
            EAN13Renderer.paste(stamp, onto: &canvas, x: x, y: y)
            x += stamp.width + 30
        }
        EAN13Renderer.addNoise(&canvas, amount: noise, seed: 42)
        return canvas
    }

    @Test func rendererMakesValidEAN13() {
        #expect(EAN13Renderer.modules("9780439023481").count == 95)
    }

    @Test(arguments: ["png", "jpeg", "webp"])
    func severalBarcodesAtSeveralAnglesAndSizes(_ format: String) throws {
        let codes: [(String, Double, Int)] = [
            (Self.isbns[0], 0, 3), (Self.isbns[1], 90, 2), (Self.isbns[2], 30, 3), (Self.isbns[3], -15, 2),
            (Self.isbns[4], 180, 3),
        ]
        let image = Self.photo(codes)
        let encoded: [UInt8]?
        switch format {
        case "png": encoded = image.pngData()
        case "webp": encoded = image.webpData()
        default: encoded = image.jpegData(quality: 80)
        }
        let bytes = try #require(encoded)
        #expect(PhotoFormat(sniffing: bytes)?.rawValue == format)
        let found = try BarcodeReader.read(photo: bytes)
        #expect(Set(found.map(\.isbn)) == Set(Self.isbns), "found \(found.map(\.isbn))")
        for barcode in found {
            #expect(barcode.box.width > 0 && barcode.box.height > 0)
            #expect(barcode.box.x >= 0 && barcode.box.x + barcode.box.width <= 1.0001)
            #expect(barcode.confidence >= 0.7 && barcode.confidence <= 0.99)
        }
    }

    /// The 45° pass is skipped when its canvas would outgrow the photo: a 357-byte 10,802 × 1 JPEG
    /// (Fuzz/scan's timeout input, kept in Fuzz/scan/corpus/timeout-thin-strip.jpg) made a 58-megapixel
    /// canvas; ordinary photos, up to the 64-megapixel canvas, are still turned.
    @Test func theTurnedPassIsBoundedByThePhotoItself() throws {
        #expect(!BarcodeReader.turnsAt45(width: 10_802, height: 1))
        #expect(!BarcodeReader.turnsAt45(width: 20_000, height: 1_600))
        #expect(BarcodeReader.turnsAt45(width: 4_000, height: 3_000))
        #expect(BarcodeReader.turnsAt45(width: 1_920, height: 1_080))
        #expect(BarcodeReader.turnsAt45(width: 5_600, height: 5_600))
        #expect(!BarcodeReader.turnsAt45(width: 5_700, height: 5_700), "a 65-megapixel canvas")
        // The canvas the rule assumes is the one `rotated(by: 45)` makes.
        let turned = GrayImage(width: 30, height: 7).rotated(by: 45).image
        let side = (Double(30 + 7) / 2.0.squareRoot()).rounded(.up)
        #expect(Double(turned.width) == side && Double(turned.height) == side)
    }

    @Test func aBlankPhotoHasNoBarcode() throws {
        let blank = GrayImage(width: 640, height: 480, fill: 250)
        let bytes = try #require(blank.pngData())
        #expect(try BarcodeReader.read(photo: bytes).isEmpty)
    }

    @Test func aBarcodeThatIsNotAnISBNIsIgnored() throws {
        // EAN-13 of a grocery item (prefix 400): not a book.
        var canvas = GrayImage(width: 500, height: 300)
        EAN13Renderer.paste(EAN13Renderer.render("4006381333931"), onto: &canvas, x: 20, y: 20)
        #expect(BarcodeReader.read(canvas).isEmpty)
    }

    @Test func damagedAndForeignFilesAreSaidPlainly() throws {
        let image = Self.photo([(Self.isbns[0], 0, 3)], width: 600, height: 400)
        let png = try #require(image.pngData())
        #expect(throws: PhotoDecodingError.damaged(.png)) {
            try BarcodeReader.read(photo: Array(png.prefix(png.count / 2)))
        }
        #expect(throws: PhotoDecodingError.notAnImage) { try BarcodeReader.read(photo: Array("isbn,title\n".utf8)) }
        #expect(throws: PhotoDecodingError.damaged(.png)) { try BarcodeReader.read(photo: Array(png.prefix(20))) }
        // A header claiming a gigantic image is refused before anything is allocated.
        var huge = png
        huge[16...23] = [0, 0, 0x9C, 0x40, 0, 0, 0x9C, 0x40][...]
        #expect(throws: (any Error).self) { try BarcodeReader.read(photo: huge) }
        // A JPEG cut short decodes what it has (or says it is damaged), never traps.
        let jpeg = try #require(image.jpegData())
        _ = try? BarcodeReader.read(photo: Array(jpeg.prefix(jpeg.count / 2)))
        #expect(PhotoDecodingError.notAnImage.description == "it is not a JPEG, PNG or WebP image")
    }
}

/// `BTS_SAMPLE_PHOTO=path swift test --filter SamplePhoto` writes the sample photo of
/// `scripts/examples/back-covers.jpg`: five back-cover barcodes at several angles (four catalog books, one
/// the catalog lacks).
@Suite(.onWorkThreads) struct SamplePhoto {
    static let isbns = ["9780439023481", "9780441172719", "9780061120084", "9780451524935", "9780743273565"]

    static func make() -> GrayImage {
        BarcodeReaderTests.photo(
            [(isbns[0], 0, 3), (isbns[1], 12, 3), (isbns[2], -20, 3), (isbns[3], 90, 2), (isbns[4], 35, 3)],
            width: 1600,
            height: 1100,
            noise: 10
        )
    }

    @Test func theSamplePhotoReadsBack() throws {
        let bytes = try #require(Self.make().jpegData(quality: 82))
        #expect(Set(try BarcodeReader.read(photo: bytes).map(\.isbn)) == Set(Self.isbns))
        if let path = ProcessInfo.processInfo.environment["BTS_SAMPLE_PHOTO"] {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }
}
