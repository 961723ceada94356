/// The photos a bookshelf scan takes, and the limits every backend applies (bendv3
/// `src/api-v3/jobs/scans.ts` @ 0077bbc: `MAX_PHOTOS_PER_BATCH = 5`, `MAX_IMAGE_SIZE = 10_000_000`,
/// `MAX_BATCH_SIZE = 50_000_000`; JPEG, PNG or WebP). The client checks them before anything is
/// uploaded; the stand-in checks them again.
package enum ScanPhotos {
    /// 1–5 photos a scan.
    package static let count = 1...5
    /// Bytes of one photo (10 MB, decimal, as production counts).
    package static let maxPhotoBytes = 10_000_000
    /// Bytes of all photos together (50 MB).
    package static let maxTotalBytes = 50_000_000
    /// The multipart field of each photo (`formData.getAll('photos[]')`).
    package static let fieldName = "photos[]"
    /// A detection at or above this confidence is approved; below it needs review (scans.ts).
    package static let approvalConfidence = 0.8
}

/// An image format a scan accepts, told by its first bytes (never by the file name).
package enum PhotoFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, webp

    /// The format of `bytes` (at least the first 12), or nil when it is none of the three.
    package init?<Bytes: Collection>(sniffing bytes: Bytes) where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The media type sent with the photo.
    package var mediaType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .webp: return "image/webp"
        }
    }
}

/// One book a bookshelf scan found (bendv3 `src/api-v3/jobs/scans.ts` @ 0077bbc `DetectedBookSchema`):
/// what was read, how sure the reader is, where in the photo, and whether the book is known.
package struct DetectedBook: Codable, Sendable, Hashable {
    /// Where in the photo, normalized to 0…1.
    package struct BoundingBox: Codable, Sendable, Hashable {
        package var x: Double, y: Double, width: Double, height: Double
        package init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    package var title: String?
    package var author: String?
    package var isbn: String?
    /// 0…1; at or above `ScanPhotos.approvalConfidence` the book is approved, below it needs review.
    package var confidence: Double
    package var boundingBox: BoundingBox?
    /// `pending`, `success`, `not_found`, `error` or `circuit_open`.
    package var enrichmentStatus: String?
    package var coverUrl: String?
    package var publisher: String?
    package var publicationYear: Int?
    /// Which photo (0-based) it was found in, when the server says (the stand-in does).
    package var photoIndex: Int?

    package init(
        title: String? = nil,
        author: String? = nil,
        isbn: String? = nil,
        confidence: Double,
        boundingBox: BoundingBox? = nil,
        enrichmentStatus: String? = nil,
        coverUrl: String? = nil,
        publisher: String? = nil,
        publicationYear: Int? = nil,
        photoIndex: Int? = nil
    ) {
        self.title = title
        self.author = author
        self.isbn = isbn
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.enrichmentStatus = enrichmentStatus
        self.coverUrl = coverUrl
        self.publisher = publisher
        self.publicationYear = publicationYear
        self.photoIndex = photoIndex
    }

    /// Approved (confidence at or above 0.8) rather than needing review.
    package var isApproved: Bool { confidence >= ScanPhotos.approvalConfidence }

    enum CodingKeys: String, CodingKey {
        case title, author, isbn, confidence, boundingBox, enrichmentStatus, coverUrl, publisher, publicationYear,
            photoIndex
    }

    /// Lenient: a missing or out-of-range confidence is 0 (needs review), numbers may be strings.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try? c.decodeIfPresent(String.self, forKey: .title)
        author = try? c.decodeIfPresent(String.self, forKey: .author)
        isbn = try c.decodeLenientString(forKey: .isbn)
        confidence = min(1, max(0, (try c.decodeLenientDouble(forKey: .confidence)) ?? 0))
        boundingBox = try? c.decodeIfPresent(BoundingBox.self, forKey: .boundingBox)
        enrichmentStatus = try? c.decodeIfPresent(String.self, forKey: .enrichmentStatus)
        coverUrl = try? c.decodeIfPresent(String.self, forKey: .coverUrl)
        publisher = try? c.decodeIfPresent(String.self, forKey: .publisher)
        publicationYear = try c.decodeLenientInt(forKey: .publicationYear)
        photoIndex = try c.decodeLenientInt(forKey: .photoIndex)
    }
}
