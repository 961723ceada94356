/// An author (docs/contract.md §4). A missing `gender` decodes as `Unknown`.
public struct AuthorDTO: Codable, Sendable, Hashable {
    public var name: String
    public var gender: AuthorGender
    public var culturalRegion: String?
    public var nationality: String?
    public var birthYear: Int?
    public var deathYear: Int?
    public var bookCount: Int?

    public init(
        name: String, gender: AuthorGender = .unknown, culturalRegion: String? = nil, nationality: String? = nil,
        birthYear: Int? = nil, deathYear: Int? = nil, bookCount: Int? = nil
    ) {
        self.name = name
        self.gender = gender
        self.culturalRegion = culturalRegion
        self.nationality = nationality
        self.birthYear = birthYear
        self.deathYear = deathYear
        self.bookCount = bookCount
    }

    enum CodingKeys: String, CodingKey {
        case name, gender, culturalRegion, nationality, birthYear, deathYear, bookCount
    }

    public init(from decoder: any Decoder) throws { try self.init(decodingFieldsFrom: decoder) }

    init<Fields: KeyedFields<CodingKeys>>(fields c: Fields) throws {
        name = try c.decode(String.self, forKey: .name)
        gender = try c.decodeIfPresent(AuthorGender.self, forKey: .gender) ?? .unknown
        culturalRegion = try c.decodeIfPresent(String.self, forKey: .culturalRegion)
        nationality = try c.decodeIfPresent(String.self, forKey: .nationality)
        birthYear = try c.decodeLenientInt(forKey: .birthYear)
        deathYear = try c.decodeLenientInt(forKey: .deathYear)
        bookCount = try c.decodeLenientInt(forKey: .bookCount)
    }
}

extension AuthorDTO: FieldsDecodable {}
