/// A work (docs/contract.md §4). Decoding is lenient: missing collections decode empty, a missing
/// `isbndbQuality` as 0 and a missing `reviewStatus` as `verified`; only `title` is mandatory.
/// Encoding always writes every required field and omits absent optionals.
package struct WorkDTO: Codable, Sendable, Hashable {
    package var title: String
    package var subjectTags: [String]
    package var goodreadsWorkIDs: [String]
    package var amazonASINs: [String]
    package var librarythingIDs: [String]
    package var googleBooksVolumeIDs: [String]
    /// 0–100.
    package var isbndbQuality: Int
    package var reviewStatus: ReviewStatus
    package var originalLanguage: String?
    package var firstPublicationYear: Int?
    package var description: String?
    package var coverImageURL: String?
    package var synthetic: Bool?
    package var primaryProvider: String?
    /// Providers that contributed data (e.g. `google-books`), not people.
    package var contributors: [String]?
    package var openLibraryWorkID: String?
    package var goodreadsID: String?
    package var searchLinks: SearchLinks?
    /// The work's own author names, when the server leaves them on the work (production's search
    /// services attach `authors: [AuthorDTO]` to each work; some handler versions do not strip them).
    package var authors: [String]?

    /// External search links of a work.
    package struct SearchLinks: Codable, Sendable, Hashable {
        package var googleBooks: String?
        package var openLibrary: String?
        package var amazon: String?
        package init(googleBooks: String? = nil, openLibrary: String? = nil, amazon: String? = nil) {
            self.googleBooks = googleBooks
            self.openLibrary = openLibrary
            self.amazon = amazon
        }
    }

    package init(
        title: String,
        subjectTags: [String] = [],
        goodreadsWorkIDs: [String] = [],
        amazonASINs: [String] = [],
        librarythingIDs: [String] = [],
        googleBooksVolumeIDs: [String] = [],
        isbndbQuality: Int = 0,
        reviewStatus: ReviewStatus = .verified,
        originalLanguage: String? = nil,
        firstPublicationYear: Int? = nil,
        description: String? = nil,
        coverImageURL: String? = nil,
        synthetic: Bool? = nil,
        primaryProvider: String? = nil,
        contributors: [String]? = nil,
        openLibraryWorkID: String? = nil,
        goodreadsID: String? = nil,
        searchLinks: SearchLinks? = nil,
        authors: [String]? = nil
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

    package init(from decoder: any Decoder) throws { try self.init(decodingFieldsFrom: decoder) }

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
