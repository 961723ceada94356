/// The photos a bookshelf scan takes, and the limits every backend applies (bendv3
/// `src/api-v3/jobs/scans.ts` @ 0077bbc: `MAX_PHOTOS_PER_BATCH = 5`, `MAX_IMAGE_SIZE = 10_000_000`,
/// `MAX_BATCH_SIZE = 50_000_000`; JPEG, PNG or WebP). The client checks them before anything is
/// uploaded; the stand-in checks them again.
public enum ScanPhotos {
    /// 1–5 photos a scan.
    public static let count = 1...5
    /// Bytes of one photo (10 MB, decimal, as production counts).
    public static let maxPhotoBytes = 10_000_000
    /// Bytes of all photos together (50 MB).
    public static let maxTotalBytes = 50_000_000
    /// The multipart field of each photo (`formData.getAll('photos[]')`).
    public static let fieldName = "photos[]"
    /// A detection at or above this confidence is approved; below it needs review (scans.ts).
    public static let approvalConfidence = 0.8
}

/// An image format a scan accepts, told by its first bytes (never by the file name).
public enum PhotoFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, webp

    /// The format of `bytes` (at least the first 12), or nil when it is none of the three.
    public init?<Bytes: Collection>(sniffing bytes: Bytes) where Bytes.Element == UInt8 {
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
    public var mediaType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .webp: return "image/webp"
        }
    }
}
