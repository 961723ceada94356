/// An author (docs/contract.md §4). A missing `gender` decodes as `Unknown`.
package struct AuthorDTO: Codable, Sendable, Hashable {
    package var name: String
    package var gender: AuthorGender
    package var culturalRegion: String?
    package var nationality: String?
    package var birthYear: Int?
    package var deathYear: Int?
    package var bookCount: Int?

    package init(
        name: String,
        gender: AuthorGender = .unknown,
        culturalRegion: String? = nil,
        nationality: String? = nil,
        birthYear: Int? = nil,
        deathYear: Int? = nil,
        bookCount: Int? = nil
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

    package init(from decoder: any Decoder) throws { try self.init(decodingFieldsFrom: decoder) }

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
