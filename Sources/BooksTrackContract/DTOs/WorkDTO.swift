/// A work (docs/contract.md §4). Decoding is lenient: missing collections decode empty, a missing
/// `isbndbQuality` as 0 and a missing `reviewStatus` as `verified`; only `title` is mandatory.
/// Encoding always writes every required field and omits absent optionals.
public struct WorkDTO: Codable, Sendable, Hashable {
    public var title: String
    public var subjectTags: [String]
    public var goodreadsWorkIDs: [String]
    public var amazonASINs: [String]
    public var librarythingIDs: [String]
    public var googleBooksVolumeIDs: [String]
    /// 0–100.
    public var isbndbQuality: Int
    public var reviewStatus: ReviewStatus
    public var originalLanguage: String?
    public var firstPublicationYear: Int?
    public var description: String?
    public var coverImageURL: String?
    public var synthetic: Bool?
    public var primaryProvider: String?
    /// Providers that contributed data (e.g. `google-books`), not people.
    public var contributors: [String]?
    public var openLibraryWorkID: String?
    public var goodreadsID: String?
    public var searchLinks: SearchLinks?
    /// The work's own author names, when the server leaves them on the work (production's search
    /// services attach `authors: [AuthorDTO]` to each work; some handler versions do not strip them).
    public var authors: [String]?

    /// External search links of a work.
    public struct SearchLinks: Codable, Sendable, Hashable {
        public var googleBooks: String?
        public var openLibrary: String?
        public var amazon: String?
        public init(googleBooks: String? = nil, openLibrary: String? = nil, amazon: String? = nil) {
            self.googleBooks = googleBooks
            self.openLibrary = openLibrary
            self.amazon = amazon
        }
    }

    public init(
        title: String, subjectTags: [String] = [], goodreadsWorkIDs: [String] = [], amazonASINs: [String] = [],
        librarythingIDs: [String] = [], googleBooksVolumeIDs: [String] = [], isbndbQuality: Int = 0,
        reviewStatus: ReviewStatus = .verified, originalLanguage: String? = nil, firstPublicationYear: Int? = nil,
        description: String? = nil, coverImageURL: String? = nil, synthetic: Bool? = nil,
        primaryProvider: String? = nil, contributors: [String]? = nil, openLibraryWorkID: String? = nil,
        goodreadsID: String? = nil, searchLinks: SearchLinks? = nil, authors: [String]? = nil
    ) {
        self.title = title
        self.subjectTags = subjectTags
        self.goodreadsWorkIDs = goodreadsWorkIDs
        self.amazonASINs = amazonASINs
        self.librarythingIDs = librarythingIDs
        self.googleBooksVolumeIDs = googleBooksVolumeIDs
        self.isbndbQuality = isbndbQuality
        self.reviewStatus = reviewStatus
        self.originalLanguage = originalLanguage
        self.firstPublicationYear = firstPublicationYear
        self.description = description
        self.coverImageURL = coverImageURL
        self.synthetic = synthetic
        self.primaryProvider = primaryProvider
        self.contributors = contributors
        self.openLibraryWorkID = openLibraryWorkID
        self.goodreadsID = goodreadsID
        self.searchLinks = searchLinks
        self.authors = authors
    }

    enum CodingKeys: String, CodingKey {
        case title, subjectTags, goodreadsWorkIDs, amazonASINs, librarythingIDs, googleBooksVolumeIDs, isbndbQuality
        case reviewStatus, originalLanguage, firstPublicationYear, description, coverImageURL, synthetic
        case primaryProvider, contributors, openLibraryWorkID, goodreadsID, searchLinks, authors
    }

    public init(from decoder: any Decoder) throws { try self.init(decodingFieldsFrom: decoder) }

    init<Fields: KeyedFields<CodingKeys>>(fields c: Fields) throws {
        title = try c.decode(String.self, forKey: .title)
        subjectTags = try c.decodeArrayOrEmpty(String.self, forKey: .subjectTags)
        goodreadsWorkIDs = try c.decodeLenientStrings(forKey: .goodreadsWorkIDs)
        amazonASINs = try c.decodeLenientStrings(forKey: .amazonASINs)
        librarythingIDs = try c.decodeLenientStrings(forKey: .librarythingIDs)
        googleBooksVolumeIDs = try c.decodeLenientStrings(forKey: .googleBooksVolumeIDs)
        isbndbQuality = try c.decodeLenientInt(forKey: .isbndbQuality) ?? 0
        reviewStatus = try c.decodeIfPresent(ReviewStatus.self, forKey: .reviewStatus) ?? .verified
        originalLanguage = try c.decodeIfPresent(String.self, forKey: .originalLanguage)
        firstPublicationYear = try c.decodeLenientInt(forKey: .firstPublicationYear)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        coverImageURL = try c.decodeIfPresent(String.self, forKey: .coverImageURL)
        synthetic = try c.decodeIfPresent(Bool.self, forKey: .synthetic)
        primaryProvider = try c.decodeIfPresent(String.self, forKey: .primaryProvider)
        contributors = try c.decodeIfPresent([String].self, forKey: .contributors)
        openLibraryWorkID = try c.decodeLenientString(forKey: .openLibraryWorkID)
        goodreadsID = try c.decodeLenientString(forKey: .goodreadsID)
        searchLinks = try c.decodeIfPresent(SearchLinks.self, forKey: .searchLinks)
        let names = c.contains(.authors) ? (try? c.decodeAuthorNames(authors: .authors, author: .authors)) : nil
        authors = names.flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension KeyedFields {
    /// An array of identifiers that may be strings or numbers; absent/null → empty.
    func decodeLenientStrings(forKey key: Key) throws -> [String] {
        if let plain = try? decodeIfPresent([String].self, forKey: key) { return plain }
        guard let values = try decodeIfPresent([JSONValue].self, forKey: key) else { return [] }
        return values.compactMap { v in
            switch v {
            case .string(let s): return s
            case .number(let d): return d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
            default: return nil
            }
        }
    }
}

extension WorkDTO: FieldsDecodable {}
