// Open enumerations: RawRepresentable structs so values this build does not know still decode.

/// An edition's `format` (`Hardcover|Paperback|E-book|Audiobook|Mass Market|Other`); unknown values (production sends `"Unknown"`) decode as-is.
public struct EditionFormat: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let hardcover: EditionFormat = "Hardcover"
    public static let paperback: EditionFormat = "Paperback"
    public static let ebook: EditionFormat = "E-book"
    public static let audiobook: EditionFormat = "Audiobook"
    public static let massMarket: EditionFormat = "Mass Market"
    public static let other: EditionFormat = "Other"

    /// The documented values.
    public static let known: [EditionFormat] = [.hardcover, .paperback, .ebook, .audiobook, .massMarket, .other]
    /// True for a documented value.
    public var isKnown: Bool { Self.known.contains(self) }
}

/// A work's `reviewStatus` (`verified|needsReview|userEdited`); unknown values decode as-is.
public struct ReviewStatus: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let verified: ReviewStatus = "verified"
    public static let needsReview: ReviewStatus = "needsReview"
    public static let userEdited: ReviewStatus = "userEdited"

    /// The documented values.
    public static let known: [ReviewStatus] = [.verified, .needsReview, .userEdited]
    /// True for a documented value.
    public var isKnown: Bool { Self.known.contains(self) }
}

/// An author's `gender` (`Female|Male|Non-binary|Other|Unknown`); unknown values decode as-is.
public struct AuthorGender: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let female: AuthorGender = "Female"
    public static let male: AuthorGender = "Male"
    public static let nonBinary: AuthorGender = "Non-binary"
    public static let other: AuthorGender = "Other"
    public static let unknown: AuthorGender = "Unknown"

    /// The documented values.
    public static let known: [AuthorGender] = [.female, .male, .nonBinary, .other, .unknown]
    /// True for a documented value.
    public var isKnown: Bool { Self.known.contains(self) }
}
